import type { ChatModel, ChatRequest, CompactionState, HookContext, StepInfo, StepPlan } from "@weft/sdk";
import type { HookSet } from "./hook-set.js";

// These run before every model call: a hook nobody taps is skipped. A throwing tap rejects with
// HookFailedError naming it, which fails the turn.

/**
 * The last prompt each hook set built and the sections it was joined from. The sections are mostly
 * the same strings call after call (the session prompt, the skills catalog), and so is then the
 * prompt: the same string, not a new copy, so what is derived from it is kept (session.ts).
 */
const lastPrompts = new WeakMap<HookSet, { sections: string[]; prompt: string }>();

/** The system prompt: `base` followed by the sections the `prompt` hook contributes. */
export async function buildPrompt(hooks: HookSet, base: string, context: HookContext): Promise<string> {
  if (!hooks.prompt.live) return base;
  const sections = ((await hooks.prompt.promise(base ? [base] : [], context)) as string[]).filter((section) => section.length > 0);
  const last = lastPrompts.get(hooks);
  if (last && sameStrings(last.sections, sections)) return last.prompt;
  const prompt = sections.join("\n\n");
  lastPrompts.set(hooks, { sections, prompt });
  return prompt;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((text, index) => text === b[index]);
}

export function prepareRequest(hooks: HookSet, request: ChatRequest, model: ChatModel, context: HookContext): Promise<ChatRequest> {
  if (!hooks.beforeModelCall.live) return Promise.resolve(request);
  return hooks.beforeModelCall.promise(request, { model }, context) as Promise<ChatRequest>;
}

export function compact(hooks: HookSet, state: CompactionState, context: HookContext): Promise<CompactionState> {
  if (!hooks.compact.live) return Promise.resolve(state);
  return hooks.compact.promise(state, context) as Promise<CompactionState>;
}

export function prepareStep(hooks: HookSet, plan: StepPlan, step: StepInfo, context: HookContext): Promise<StepPlan> {
  if (!hooks.prepareStep.live) return Promise.resolve(plan);
  return hooks.prepareStep.promise(plan, step, context) as Promise<StepPlan>;
}

export function stopWhen(hooks: HookSet, step: StepInfo, context: HookContext): Promise<string | undefined> {
  if (!hooks.stopWhen.live) return Promise.resolve(undefined);
  return hooks.stopWhen.promise(step, context) as Promise<string | undefined>;
}
