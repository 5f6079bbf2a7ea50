import { randomUUID } from "node:crypto";
import { Role, TaskState, type Message, type Task } from "@a2a-js/sdk";
import { deadlinePassed, errorMessage, errorResult, isRecord, mediaResult } from "@weft/sdk";
import type { PendingAnswer, PendingRequest, ToolContext, ToolResult } from "@weft/sdk";
import { artifactsText, messageText, messageUrl } from "./message-text.js";
import { artifactsMedia, messageMedia } from "./message-media.js";
import type { RemoteAgent } from "./remote-agent.js";
import { NO_SESSION, type Conversation, type Conversations } from "./conversations.js";
import { TaskFollower, type Settled } from "./task-follower.js";
import { failureText } from "./transport-failure.js";
import { isSettled, isTerminal, stateName, stateOf, statusKey } from "./task-state.js";

/** How long the cancel request after an abort may take; the caller has already been answered. */
export const CANCEL_TIMEOUT_MS = 10_000;

/** What a `pending` request carries so the re-run can answer the same remote task. */
export interface PendingTask {
  taskId: string;
  contextId: string;
}

/** What the model asked for in one call. */
export interface AgentRequest {
  /** The tool's name: conversations are kept per tool. */
  tool: string;
  task: string;
  /** Leave this session's conversation with the agent and start another. */
  newConversation: boolean;
}

/**
 * One tool call: sends `task` as a message in this session's conversation with the agent (continuing
 * the task the agent left waiting for input, if any), or, when the call re-runs with the host's answer,
 * sends the answer on the suspended task; then follows the task until it settles. An abort cancels the
 * remote task.
 */
export async function callAgent(agent: RemoteAgent, request: AgentRequest, ctx: ToolContext, conversations: Conversations): Promise<ToolResult> {
  const sessionId = ctx.session?.id ?? NO_SESSION;
  let current: PendingTask | undefined;
  let settled = false;
  let step = 0;
  const follower = new TaskFollower(agent, ctx.signal, (snapshot) => {
    current = { taskId: snapshot.id, contextId: snapshot.contextId };
    settled = isTerminal(snapshot);
    ctx.onProgress({ progress: ++step, message: progressMessage(snapshot) });
  }, (message) => ctx.onProgress({ progress: step, message }));
  const remember = (outcome: Settled): ToolResult => {
    conversations.set(sessionId, request.tool, conversationAfter(outcome));
    return resultOf(agent.name, outcome, follower.resumed);
  };
  try {
    if (!ctx.answer) {
      let conversation = conversations.get(sessionId, request.tool);
      if (request.newConversation && conversation) {
        if (conversation.openTaskId) await cancelRemote(agent, conversation.openTaskId);
        conversations.set(sessionId, request.tool, undefined);
        conversation = undefined;
      }
      return remember(await sendInConversation(follower, request.task, conversation));
    }
    const resumed = pendingTask(ctx.pending);
    if (!resumed) return errorResult(`${agent.name} cannot resume: the answer does not belong to a pending A2A task`);
    current = resumed;
    if (ctx.answer.action !== "accept") {
      await cancelRemote(agent, resumed.taskId);
      conversations.set(sessionId, request.tool, { contextId: resumed.contextId });
      return errorResult(`${agent.name} was not answered (${ctx.answer.action}); its task was canceled`, { taskId: resumed.taskId });
    }
    // The task as it stands: it may have moved on (canceled, expired) while the host was answering.
    const before = await follower.current(resumed.taskId);
    if (isTerminal(before)) return remember({ kind: "task", task: before });
    return remember(await follower.send(userMessage(answerText(ctx.answer, ctx.pending), resumed), statusKey(before)));
  } catch (error) {
    if (!ctx.signal.aborted) return errorResult(`${agent.name} call failed: ${failureText(error)}`, current ? { taskId: current.taskId } : undefined);
    if (current && !settled) await cancelRemote(agent, current.taskId);
    const task = current ? { taskId: current.taskId } : {};
    if (deadlinePassed(ctx.signal)) return errorResult(errorMessage(ctx.signal.reason), { timedOut: true, ...task });
    return errorResult(`${agent.name} call was aborted`, { aborted: true, ...(current ? { taskId: current.taskId } : {}) });
  }
}

/**
 * The message goes into the session's context; when the agent left a task there waiting for input,
 * it is the answer to that task (unless the task has ended meanwhile, or is gone).
 */
async function sendInConversation(follower: TaskFollower, task: string, conversation: Conversation | undefined): Promise<Settled> {
  if (!conversation) return follower.send(userMessage(task));
  const { contextId, openTaskId } = conversation;
  if (openTaskId) {
    const open = await follower.current(openTaskId).catch(() => undefined);
    if (open && isSettled(open) && !isTerminal(open)) return follower.send(userMessage(task, { taskId: openTaskId, contextId }), statusKey(open));
  }
  return follower.send(userMessage(task, { taskId: "", contextId }));
}

/** What the next call in the session continues: the context, and the task if it waits for the caller. */
function conversationAfter(outcome: Settled): Conversation | undefined {
  if (outcome.kind === "message") return outcome.message.contextId ? { contextId: outcome.message.contextId } : undefined;
  const { task } = outcome;
  if (!task.contextId) return undefined;
  return isSettled(task) && !isTerminal(task) ? { contextId: task.contextId, openTaskId: task.id } : { contextId: task.contextId };
}

/** The model reads the agent's own words: artifacts, else its last message; a failure says which and why. */
function resultOf(agentName: string, settled: Settled, resumed?: string): ToolResult {
  if (settled.kind === "message") {
    const text = messageText(settled.message);
    return mediaResult(text || `${agentName} replied without text`, messageMedia(settled.message), { metadata: { contextId: settled.message.contextId, ...(resumed ? { resumed } : {}) } });
  }
  const { task } = settled;
  const state = stateOf(task);
  const metadata = { taskId: task.id, contextId: task.contextId, state: stateName(state), ...(resumed ? { resumed } : {}) };
  const said = messageText(task.status?.message);
  switch (state) {
    case TaskState.TASK_STATE_COMPLETED: {
      const text = artifactsText(task.artifacts) || said || messageText(lastAgentMessage(task));
      const media = task.artifacts?.length ? artifactsMedia(task.artifacts) : messageMedia(task.status?.message ?? lastAgentMessage(task));
      return mediaResult(text || `${agentName} completed the task without a text reply`, media, { metadata });
    }
    case TaskState.TASK_STATE_FAILED:
      return errorResult(`${agentName} failed the task: ${said || "no reason given"}`, metadata);
    case TaskState.TASK_STATE_REJECTED:
      return errorResult(`${agentName} rejected the task: ${said || "no reason given"}`, metadata);
    case TaskState.TASK_STATE_CANCELED:
      return errorResult(`${agentName} canceled the task: ${said || "no reason given"}`, metadata);
    case TaskState.TASK_STATE_INPUT_REQUIRED: {
      const question = said || `${agentName} needs more input to continue`;
      const pending: PendingRequest = { kind: "input", message: question, data: { taskId: task.id, contextId: task.contextId } };
      return { output: `${agentName} needs input: ${question}`, pending, metadata };
    }
    case TaskState.TASK_STATE_AUTH_REQUIRED: {
      const request = said || `${agentName} needs authorization to continue`;
      const pending: PendingRequest = { kind: "authorization", message: request, data: { taskId: task.id, contextId: task.contextId } };
      const url = messageUrl(task.status?.message);
      if (url) pending.url = url;
      return { output: `${agentName} needs authorization: ${request}`, pending, metadata };
    }
    default:
      return errorResult(`${agentName} left the task in state ${stateName(state)}`, metadata);
  }
}

function lastAgentMessage(task: Task): Message | undefined {
  return task.history.findLast((message) => message.role === Role.ROLE_AGENT);
}

function pendingTask(pending: PendingRequest | undefined): PendingTask | undefined {
  const data = pending?.data;
  if (!isRecord(data) || typeof data.taskId !== "string" || typeof data.contextId !== "string") return undefined;
  return { taskId: data.taskId, contextId: data.contextId };
}

/** The answer as text: a string as is, anything else as JSON; an empty authorization answer says it is done. */
function answerText(answer: PendingAnswer, pending: PendingRequest | undefined): string {
  const { content } = answer;
  if (typeof content === "string" && content.length > 0) return content;
  if (content !== undefined && content !== null && content !== "") return JSON.stringify(content);
  return pending?.kind === "authorization" ? "Authorization completed." : "(no answer)";
}

function userMessage(text: string, task?: { taskId: string; contextId: string }): Message {
  return {
    messageId: randomUUID(),
    contextId: task?.contextId ?? "",
    taskId: task?.taskId ?? "",
    role: Role.ROLE_USER,
    parts: [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** `working`, or `working: <what the agent said>`. */
function progressMessage(task: Task): string {
  const said = messageText(task.status?.message);
  const state = stateName(stateOf(task));
  return said ? `${state}: ${said}` : state;
}

/** Best effort: the task may have finished meanwhile; a failure is logged, never the caller's problem. */
async function cancelRemote(agent: RemoteAgent, taskId: string): Promise<void> {
  try {
    await agent.client.cancelTask({ tenant: "", id: taskId, metadata: undefined }, { signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS) });
  } catch (error) {
    agent.logger.warn(`A2A agent ${agent.name}: could not cancel task ${taskId}: ${errorMessage(error)}`);
  }
}
