import type { TSchema } from "typebox";
import type { Compile } from "./typebox.js";
import type { ChatRequest, OutputRequest, StreamEvent } from "./chat-model.js";
import { OutputValidationError, WeftError } from "./errors.js";
import { isRecord } from "./is-record.js";
import { addStats, type AssistantMessage } from "./message.js";
import { dropNullOptionals } from "./output-schema.js";
import { parsePartialJson } from "./partial-json.js";
import { resolveObjectSchema, type ValidationOutcome } from "./tool-input.js";

/** A structured-output request ready for a provider: the JSON Schema to send and the check the reply must pass. */
export interface ResolvedOutput {
  /** 1-64 letters, digits, `_`, `-`: OpenAI's `json_schema.name`, Anthropic's answer tool. */
  name: string;
  description?: string;
  /** The schema as the user gave it, as JSON Schema; a provider adapts it to its own subset. */
  jsonSchema: Record<string, unknown>;
  check(value: Record<string, unknown>): Promise<ValidationOutcome>;
}

const OUTPUT_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const resolved = new WeakMap<object, ResolvedOutput>();

/** Resolves (once per schema object) what the user gave; a bad schema or name is a SCHEMA_INVALID error naming the option. */
export function resolveOutput(output: OutputRequest): ResolvedOutput {
  const cached = typeof output.schema === "object" && output.schema !== null ? resolved.get(output.schema) : undefined;
  if (cached && cached.name === (output.name ?? "output") && cached.description === output.description) return cached;
  const name = output.name ?? "output";
  const schema = resolveObjectSchema("output.schema", output.schema);
  if (!OUTPUT_NAME.test(name)) throw new WeftError("SCHEMA_INVALID", `output.name "${name}" is not a valid name: use 1-64 letters, digits, _ or -`);
  let check: ResolvedOutput["check"];
  if (schema.validate) {
    const validate = schema.validate;
    check = async (value) => {
      const outcome = await validate(value);
      return "problems" in outcome ? { problems: outcome.problems.map((line) => line.replace(/^\(arguments\)/, "(output)")) } : outcome;
    };
  } else {
    // typebox's compiler (~100 KB) loads with the first reply to check, not with every process.
    let compiling: Promise<ReturnType<typeof Compile>> | undefined;
    check = async (value) => {
      compiling ??= import("./typebox.js").then((typebox) => typebox.Compile(schema.jsonSchema as TSchema));
      const compiled = await compiling;
      return compiled.Check(value) ? { value } : { problems: [...compiled.Errors(value)].map((error) => `${error.instancePath || "(output)"}: ${error.message}`) };
    };
  }
  const result: ResolvedOutput = { name, ...(output.description !== undefined ? { description: output.description } : {}), jsonSchema: schema.jsonSchema, check };
  if (typeof output.schema === "object" && output.schema !== null) resolved.set(output.schema, result);
  return result;
}

/** What a model without a native structured-output mode is told (a system message). Text the model reads: pinned. */
export function outputInstruction(output: ResolvedOutput): string {
  const what = output.description ? ` (${output.description})` : "";
  return `Give your final answer as one JSON object${what} that follows this JSON Schema, with no other text:\n${JSON.stringify(output.jsonSchema)}`;
}

/** The repair round's request. Text the model reads: pinned. */
export function repairPrompt(problems: readonly string[]): string {
  return `Your reply does not match the required JSON schema:\n${problems.map((line) => `- ${line}`).join("\n")}\nReply again with only the corrected JSON object, nothing else.`;
}

/** The reply's value, or the problems with it, one line per failing path. */
export async function checkReply(text: string, output: ResolvedOutput): Promise<ValidationOutcome> {
  const json = unfenced(text).trim();
  if (!json) return { problems: ["(output): the reply is empty; expected a JSON object"] };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { problems: [`(output): the reply is not valid JSON (${error instanceof Error ? error.message : String(error)})`] };
  }
  if (!isRecord(value)) {
    return { problems: [`(output): expected a JSON object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`] };
  }
  return output.check(dropNullOptionals(value, output.jsonSchema));
}

/** Models without a native mode often wrap the object in a Markdown code fence. */
function unfenced(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)(?:\n```\s*)?$/.exec(text);
  return fenced?.[1] ?? text;
}

/**
 * Runs a structured-output request over `run` (one provider reply per call): streams `output` events
 * with the partial object as the JSON arrives, validates the final reply, and on failure runs one
 * repair round that tells the model which paths failed; a second failure is an OutputValidationError
 * with the raw text. The repaired reply's stats include the first attempt's. A reply with tool calls
 * is a step of a tool-using turn and passes unchecked. Without `output`, `run` as it is.
 */
export function withStructuredOutput(
  request: ChatRequest,
  model: string,
  run: (request: ChatRequest, output: ResolvedOutput | undefined) => AsyncIterable<StreamEvent>,
): AsyncIterable<StreamEvent> {
  // Without `output` there is nothing to check: no layer between the reply's events and the caller.
  return request.output ? checkedReplies(request, request.output, model, run) : run(request, undefined);
}

async function* checkedReplies(
  request: ChatRequest,
  asked: OutputRequest,
  model: string,
  run: (request: ChatRequest, output: ResolvedOutput | undefined) => AsyncIterable<StreamEvent>,
): AsyncGenerator<StreamEvent> {
  const output = resolveOutput(asked);
  let current = request;
  let earlier: AssistantMessage | undefined;
  for (let attempt = 0; ; attempt++) {
    let text = "";
    let shown = "";
    let reply: AssistantMessage | undefined;
    for await (const event of run(current, output)) {
      if (event.type === "done") {
        reply = event.message;
        break;
      }
      yield event;
      if (event.type !== "text") continue;
      text += event.delta;
      const partial = parsePartialJson(unfenced(text));
      const seen = JSON.stringify(partial);
      if (isRecord(partial) && seen !== shown) {
        shown = seen;
        yield { type: "output", partial };
      }
    }
    if (!reply) return;
    if (earlier?.stats && reply.stats) reply = { ...reply, stats: addStats(earlier.stats, reply.stats) };
    if (reply.toolCalls?.length) {
      yield { type: "done", message: reply };
      return;
    }
    const verdict = await checkReply(reply.content, output);
    if ("value" in verdict) {
      yield { type: "done", message: { ...reply, output: verdict.value } };
      return;
    }
    if (attempt > 0) throw new OutputValidationError(model, reply.content, verdict.problems);
    yield { type: "notice", code: "output-repair", message: `the reply did not match the output schema (${verdict.problems.join("; ")}); asking the model once to correct it` };
    earlier = reply;
    const { stats: _counted, ...invalid } = reply;
    current = { ...request, messages: [...request.messages, invalid, { role: "user", content: repairPrompt(verdict.problems) }] };
  }
}

/**
 * For providers that answer through a forced tool (Anthropic models without structured outputs): the
 * call of the answer tool becomes the reply's text (its arguments as JSON), so validation, partial
 * objects and the transcript look the same as in a native mode.
 */
export async function* answerToolAsText(events: AsyncIterable<StreamEvent>, toolName: string): AsyncGenerator<StreamEvent> {
  let answer = "";
  for await (const event of events) {
    if (event.type === "tool_call" && event.call.name === toolName) {
      const delta = JSON.stringify(event.call.arguments);
      answer += delta;
      yield { type: "text", delta };
    } else if (event.type === "done" && answer) {
      const { toolCalls, ...message } = event.message;
      const others = (toolCalls ?? []).filter((call) => call.name !== toolName);
      // The answer is the tool's arguments alone: text around a forced call is not part of it.
      yield { type: "done", message: { ...message, content: answer, ...(others.length ? { toolCalls: others } : {}) } };
    } else yield event;
  }
}
