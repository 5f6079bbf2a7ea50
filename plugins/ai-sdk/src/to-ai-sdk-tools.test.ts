import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { stepCountIs, streamText, type ModelMessage } from "ai";
import { Type } from "typebox";
import { z } from "zod";
import { createToolkit, type Toolkit } from "@weft/core";
import { defineTool, type FeedbackEvent, type PendingAnswer, type Suspension } from "@weft/sdk";
import { useScriptedServer } from "@weft/sdk/testing";
import { aiSdkToolApproval, toAiSdkTools } from "./to-ai-sdk-tools.js";
import { chatText, chatToolCall, frame, sseReply } from "./test-fixtures/wires.js";

const weather = defineTool({
  name: "weather",
  description: "Weather for a city",
  input: z.object({ city: z.string(), unit: z.enum(["c", "f"]).default("c") }),
  execute: ({ city, unit }) => ({ output: `${city}: 12 ${unit.toUpperCase()}` }),
});

/** Every run of deploy, with the answer it ran with (none on the first run). */
const deployRuns: (string | undefined)[] = [];
const deploy = defineTool({
  name: "deploy",
  description: "Deploy a service",
  input: Type.Object({ service: Type.String() }),
  execute: ({ service }, ctx) => {
    deployRuns.push(ctx.answer?.action);
    return ctx.answer?.action === "accept" ? { output: `deployed ${service}` } : { output: "", pending: { kind: "approval", message: `Deploy ${service}?` } };
  },
});

const server = useScriptedServer(beforeEach, afterEach);
let toolkit: Toolkit;
const events: FeedbackEvent[] = [];
beforeEach(async () => {
  events.length = 0;
  deployRuns.length = 0;
  toolkit = await createToolkit({ builtins: false, extraTools: [weather, deploy], feedback: (event) => void events.push(event) });
});
afterEach(async () => {
  await toolkit.close();
});

const model = () => createOpenAICompatible({ name: "compat", baseURL: `${server.url}/v1`, includeUsage: true })("gpt-test");

/** Runs streamText over two steps: the scripted model calls `name` with `args`, then answers "Done.". */
async function runOneToolCall(tools: ReturnType<typeof toAiSdkTools>, name: string, args: Record<string, unknown>) {
  server.reply(sseReply(frame(chatToolCall({ id: "call_1", name, arguments: args }))), sseReply(frame(chatText("Done."))));
  const result = streamText({ model: model(), tools, prompt: "Go.", stopWhen: stepCountIs(3) });
  return { text: await result.text, toolMessage: server.requests.at(-1)?.json().messages.at(-1) };
}

describe("a weft toolkit as an AI SDK ToolSet", () => {
  it("offers each tool with its JSON Schema and runs calls through weft's execute path", async () => {
    const tools = toAiSdkTools(toolkit);
    expect(Object.keys(tools)).toEqual(["deploy", "weather"]);
    const { text, toolMessage } = await runOneToolCall(tools, "weather", { city: "Oslo" });
    expect(text).toBe("Done.");
    // The zod default was applied by weft's execute path, which reported the call.
    expect(toolMessage).toEqual({ role: "tool", tool_call_id: "call_1", content: "Oslo: 12 C" });
    expect(events.filter((event) => event.type.startsWith("tool.")).map((event) => event.type)).toEqual(["tool.called", "tool.returned"]);
    expect(server.requests[0]?.json().tools).toEqual([
      { type: "function", function: { name: "deploy", description: "Deploy a service", parameters: deploy.inputSchema } },
      { type: "function", function: { name: "weather", description: "Weather for a city", parameters: weather.inputSchema } },
    ]);
  });

  it("keeps weft's gate and validation: a denied or invalid call is an error the model reads", async () => {
    toolkit.kernel.tools.setInterceptor((call) => (call.arguments.city === "Mordor" ? { action: "deny", reason: "no travel there" } : undefined));
    const denied = await runOneToolCall(toAiSdkTools(toolkit), "weather", { city: "Mordor" });
    expect(denied.toolMessage).toEqual({ role: "tool", tool_call_id: "call_1", content: "tool call blocked: no travel there" });
    const invalid = await runOneToolCall(toAiSdkTools(toolkit), "weather", { town: "Oslo" });
    expect(invalid.toolMessage).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: "invalid arguments for weather:\n- /city: Invalid input: expected string, received undefined",
    });
  });

  it("answers a suspension with waitFor and resumes the call; without one the model reads that it waits", async () => {
    const asked: Suspension[] = [];
    const waitFor = async (suspension: Suspension): Promise<PendingAnswer> => {
      asked.push(suspension);
      return { action: "accept" };
    };
    const approved = await runOneToolCall(toAiSdkTools(toolkit, { waitFor }), "deploy", { service: "api" });
    expect(asked).toEqual([{ kind: "approval", message: "Deploy api?", callId: "call_1", toolName: "deploy" }]);
    expect(approved.toolMessage).toMatchObject({ content: "deployed api" });
    const declined = await runOneToolCall(toAiSdkTools(toolkit, { waitFor: async () => ({ action: "decline" }) }), "deploy", { service: "db" });
    expect(declined.toolMessage).toMatchObject({ content: "the user declined the request: Deploy db?" });
    const unanswered = await runOneToolCall(toAiSdkTools(toolkit), "deploy", { service: "db" });
    expect(unanswered.toolMessage).toMatchObject({ content: "deploy is waiting for the user: Deploy db? (this host cannot answer it)" });
  });
});

describe("a live ToolSet", () => {
  it("follows the toolkit: a tool added while the run goes on is offered at the next step, a removed one is gone", async () => {
    const old = toolkit.kernel.scope("old-pack");
    old.tools.add(defineTool({ name: "old", description: "Soon gone", input: Type.Object({}), execute: () => ({ output: "old" }) }));
    const late = toolkit.kernel.scope("late-pack");
    const install = defineTool({
      name: "install",
      description: "Installs shout, removes old",
      input: Type.Object({}),
      execute: async () => {
        late.tools.add(defineTool({ name: "shout", description: "Shout", input: Type.Object({}), execute: () => ({ output: "HEY" }) }));
        await old.dispose();
        return { output: "installed" };
      },
    });
    late.tools.add(install);
    await Promise.resolve();
    const tools = toAiSdkTools(toolkit);
    expect(Object.keys(tools).sort()).toEqual(["deploy", "install", "old", "weather"]);
    server.reply(
      sseReply(frame(chatToolCall({ id: "call_1", name: "install", arguments: {} }))),
      sseReply(frame(chatToolCall({ id: "call_2", name: "shout", arguments: {} }))),
      sseReply(frame(chatText("Done."))),
    );
    const result = streamText({ model: model(), tools, prompt: "Go.", stopWhen: stepCountIs(4) });
    expect(await result.text).toBe("Done.");
    const offered = server.requests.map((request) => (request.json().tools as { function: { name: string } }[]).map((tool) => tool.function.name));
    expect(offered[0]).toEqual(["deploy", "install", "old", "weather"]);
    expect(offered[1]).toEqual(["deploy", "install", "shout", "weather"]);
    // The tool that came in mid-run really ran through weft.
    expect(server.requests[2]?.json().messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_2", content: "HEY" });
  });

  it("stops following when its signal aborts", async () => {
    const stop = new AbortController();
    const tools = toAiSdkTools(toolkit, { signal: stop.signal });
    stop.abort();
    toolkit.kernel.scope("late-pack").tools.add(defineTool({ name: "shout", description: "Shout", input: Type.Object({}), execute: () => ({ output: "HEY" }) }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(Object.keys(tools)).toEqual(["deploy", "weather"]);
  });
});

describe("weft suspensions as AI SDK tool approvals", () => {
  /** One streamText call over `messages` with the set's approval function; the scripted model gives `replies`. */
  async function step(tools: ReturnType<typeof toAiSdkTools>, messages: ModelMessage[], ...replies: unknown[][]) {
    server.reply(...replies.map((reply) => sseReply(frame(reply))));
    const result = streamText({ model: model(), tools, toolApproval: aiSdkToolApproval(tools), messages, stopWhen: stepCountIs(2) });
    const content = await result.content;
    messages.push(...(await result.responseMessages));
    return content;
  }

  /** The approval request of the first step (the model asks to deploy api), and the conversation so far. */
  async function askToDeploy(tools: ReturnType<typeof toAiSdkTools>) {
    const messages: ModelMessage[] = [{ role: "user", content: "Deploy the api." }];
    const content = await step(tools, messages, chatToolCall({ id: "call_1", name: "deploy", arguments: { service: "api" } }));
    const request = content.find((part) => part.type === "tool-approval-request");
    return { messages, request };
  }

  it("surfaces an approval the tool asks for as the AI SDK's approval request; approving resumes the call", async () => {
    const tools = toAiSdkTools(toolkit);
    const { messages, request } = await askToDeploy(tools);
    expect(request).toMatchObject({ type: "tool-approval-request", reason: "Deploy api?", toolCall: { toolCallId: "call_1", toolName: "deploy" } });
    // The run stopped at the request: one model call, the tool asked once.
    expect(server.requests).toHaveLength(1);
    expect(deployRuns).toEqual([undefined]);
    messages.push({ role: "tool", content: [{ type: "tool-approval-response", approvalId: request?.type === "tool-approval-request" ? request.approvalId : "", approved: true }] });
    await step(tools, messages, chatText("Deployed."));
    expect(deployRuns).toEqual([undefined, "accept"]);
    expect(server.requests[1]?.json().messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: "deployed api" });
  });

  it("tells the tool of a denial the next time the set sees the conversation", async () => {
    const tools = toAiSdkTools(toolkit);
    const { messages, request } = await askToDeploy(tools);
    messages.push({ role: "tool", content: [{ type: "tool-approval-response", approvalId: request?.type === "tool-approval-request" ? request.approvalId : "", approved: false, reason: "not today" }] });
    await step(tools, messages, chatText("Not deployed."));
    expect(server.requests[1]?.json().messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_1" });
    // The next call of the conversation carries the denial to the held call.
    messages.push({ role: "user", content: "Weather in Oslo then?" });
    await step(tools, messages, chatToolCall({ id: "call_2", name: "weather", arguments: { city: "Oslo" } }), chatText("12 C."));
    await vi.waitFor(() => expect(deployRuns).toEqual([undefined, "decline"]));
  });

  it("cancels a held call nobody answers, after approvalTimeoutMs", async () => {
    const tools = toAiSdkTools(toolkit, { approvalTimeoutMs: 50 });
    await askToDeploy(tools);
    await vi.waitFor(() => expect(deployRuns).toEqual([undefined, "cancel"]), { timeout: 10_000 });
  });

  it("runs a call that needs no approval once, in the approval check, and gives the AI SDK its result", async () => {
    const tools = toAiSdkTools(toolkit);
    const messages: ModelMessage[] = [{ role: "user", content: "Weather?" }];
    server.reply(sseReply(frame(chatToolCall({ id: "call_1", name: "weather", arguments: { city: "Oslo" } }))), sseReply(frame(chatText("12 C."))));
    const result = streamText({ model: model(), tools, toolApproval: aiSdkToolApproval(tools), messages, stopWhen: stepCountIs(2) });
    expect(await result.text).toBe("12 C.");
    expect(events.filter((event) => event.type === "tool.called")).toHaveLength(1);
    expect(server.requests[1]?.json().messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: "Oslo: 12 C" });
  });
});
