import type { StepInfo, StepPlan } from "@weft/sdk";

/** Ends the turn after a step when it returns true or a reason (`stopWhen`); false or undefined goes on. */
export type StopCondition = (step: StepInfo) => boolean | string | undefined | Promise<boolean | string | undefined>;

/** Changes the next model call (`prepareStep`): return a new plan, or undefined to keep it. */
export type PrepareStep = (plan: StepPlan, step: StepInfo) => StepPlan | undefined | Promise<StepPlan | undefined>;

/** Stops once the turn made `count` model calls. */
export function stepCountIs(count: number): StopCondition {
  return (step) => (step.step >= count ? `${count} steps` : undefined);
}

/** Stops after a step that called `name` (a "final answer" tool, say). */
export function hasToolCall(name: string): StopCondition {
  return (step) => (step.lastReply?.toolCalls?.some((call) => call.name === name) ? `${name} was called` : undefined);
}

/** A condition as a `stopWhen` tap: true becomes a reason naming the condition's place in the list. */
export function stopTap(condition: StopCondition, index: number): (step: StepInfo) => Promise<string | undefined> {
  return async (step) => {
    const verdict = await condition(step);
    if (verdict === true) return `stopWhen[${index}]`;
    return typeof verdict === "string" ? verdict : undefined;
  };
}
