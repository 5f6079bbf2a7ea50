import { errorMessage, errorResult, isAbortError } from "@weft/sdk";
import type { AnyTool, FeedbackEvent, OutputRequest, PendingAnswer, ToolContext, ToolResult, ToolSubset } from "@weft/sdk";
import { requestOf } from "./suspension.js";
import type { AgentResponse } from "./turn.js";

/** How an agent is offered to another as a tool (`agent.asTool`). */
export interface AgentToolOptions {
  /** The tool's name, as the calling model sees it. */
  name: string;
  description: string;
  /** JSON Schema of the arguments (type object); the subagent gets them as JSON text. Default: `{ task }`. */
  input?: Record<string, unknown>;
  /** The subagent's system prompt. */
  instructions?: string;
  /** Which of the kernel's tools the subagent may call. */
  tools?: ToolSubset;
  /** A typed answer: the subagent's final answer is validated against this schema and is the result as JSON. */
  output?: OutputRequest;
}

/** What a subagent call needs of the agent behind it: one fresh run per call, on its own child session. */
export interface SubagentRunner {
  /** Runs a turn (`input`) or continues a pending one (`answer`) in the child session `sessionId`. */
  run(
    sessionId: string,
    start: { input: string } | { answer: PendingAnswer },
    options: { prompt?: string; tools?: ToolSubset; output?: OutputRequest; signal: AbortSignal; onEvent(event: FeedbackEvent): void },
  ): Promise<AgentResponse>;
}

/** The default arguments: one task in words. */
export const SUBAGENT_TASK_SCHEMA = {
  type: "object",
  properties: { task: { type: "string", description: "What the agent should do, with everything it needs to know" } },
  required: ["task"],
};

/** What a pending request of a subagent call carries in `data`: the child session that waits, and its own data. */
interface SubagentTicket {
  subagentSession: string;
  data?: unknown;
}

/**
 * An agent as a tool. Each call runs in its own child session (`<parent session>/<tool>/<call id>`, so
 * a durable store keeps it), with its own transcript, prompt, tool subset and limits; the calling
 * transcript only holds the call and the final answer. A question from inside surfaces as this call's
 * `pending` request, and the host's answer (whatever it is) resumes the child session. The child's tool
 * calls and interim text arrive as progress of this call.
 */
export function subagentTool(runner: SubagentRunner, options: AgentToolOptions): AnyTool {
  const { name, description, instructions, tools, output } = options;
  return {
    name,
    description,
    inputSchema: options.input ?? SUBAGENT_TASK_SCHEMA,
    async execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
      const ticket = ctx.pending?.data as Partial<SubagentTicket> | undefined;
      const sessionId = ctx.answer && typeof ticket?.subagentSession === "string" ? ticket.subagentSession : `${ctx.session?.id ?? "kernel"}/${name}/${ctx.callId}`;
      const start = ctx.answer ? { answer: ctx.answer } : { input: options.input ? JSON.stringify(args) : String(args.task ?? "") };
      let step = 0;
      const onEvent = (event: FeedbackEvent) => {
        const message = progressOf(event);
        if (message) ctx.onProgress({ progress: ++step, message });
      };
      let response: AgentResponse;
      try {
        response = await runner.run(sessionId, start, {
          ...(instructions !== undefined ? { prompt: instructions } : {}),
          ...(tools ? { tools } : {}),
          ...(output ? { output } : {}),
          signal: ctx.signal,
          onEvent,
        });
      } catch (error) {
        if (isAbortError(error) || ctx.signal.aborted) return errorResult(`${name} was aborted`, { aborted: true, subagentSession: sessionId });
        return errorResult(`${name} failed: ${errorMessage(error)}`, { subagentSession: sessionId });
      }
      const metadata = { subagentSession: sessionId, usage: response.metadata.usage, iterations: response.metadata.iterations };
      if (response.status === "pending" && response.suspension) {
        const data: SubagentTicket = { subagentSession: sessionId, ...(response.suspension.data !== undefined ? { data: response.suspension.data } : {}) };
        return { output: `${name} asks: ${response.suspension.message}`, pending: { ...requestOf(response.suspension), data }, metadata };
      }
      if (response.status === "incomplete" || response.status === "limit") {
        const why = response.limit ? `its ${response.limit.scope} ${response.limit.name} limit of ${response.limit.limit}` : (response.reason ?? "incomplete");
        return errorResult(`${name} stopped before it finished (${why})${response.content ? `; its last words: ${response.content}` : ""}`, metadata);
      }
      // A typed answer is the result as JSON (and, whole, in the metadata for the host).
      if (response.output) return { output: JSON.stringify(response.output), metadata: { ...metadata, output: response.output } };
      return { output: response.content, metadata };
    },
  };
}

/** The child's steps worth showing under the parent's call. */
function progressOf(event: FeedbackEvent): string | undefined {
  if (event.type === "tool.called") return `calls ${event.name}`;
  if (event.type === "text.interim") return event.text;
  return undefined;
}
