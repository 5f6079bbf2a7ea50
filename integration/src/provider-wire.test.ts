import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// The summariser's instructions are pinned word for word in core's compaction tests; here they must reach every wire.
import { SUMMARY_INSTRUCTIONS, createAgent, createKernel } from "@weft/core";
import { memoryLogger, type FeedbackEvent, type FeedbackEventOf, type Kernel, type Plugin } from "@weft/sdk";
import { defined, startScriptedServer, type ScriptedResponse, type ScriptedServer } from "@weft/sdk/testing";
import anthropic from "@weft/plugin-anthropic";
import ollama from "@weft/plugin-ollama";
import openrouter from "@weft/plugin-openrouter";
import { folderTools } from "./folder-tools.js";
import { anthropicReply, chatCompletionsReply, ollamaReply, type ReplyParts } from "./wire-replies.js";
import { anthropicWireProblems, chatCompletionsWireProblems, ollamaWireProblems } from "./wire-rules.js";

type Json = Record<string, any>;

/** OpenAI-compatible and Ollama carry text and tool results as role messages alike. */
const roleMessagesAsText = (body: Json) => body.messages.map((message: Json) => ({ role: message.role, text: message.content }));
const roleToolResults = (body: Json) =>
  body.messages.filter((message: Json) => message.role === "tool").map((message: Json) => ({ content: message.content, isError: false }));

const PROMPT = "You are a careful release assistant.";
const NOTES = "Release 2.0 ships on Friday. ".repeat(40);
const TODO = "- update the changelog\n".repeat(50);
const LISTING = "notes.txt\nrelease.txt\ntodo.txt";
const FIRST = "Compare notes.txt and todo.txt.";
const SECOND = "Which files are there, and what does release.txt say?";
const SUMMARY = "The user compared notes.txt and todo.txt; both are about the 2.0 release on Friday.";
/** What the model reads in place of a tool output compaction pruned. */
const pruned = (output: string) => `[output removed to save context: ${output.length} characters; call the tool again if you still need it]`;
const CONTEXT_WINDOW = 4000;
const THRESHOLD = 3400; // 85% of the window

/** A message as text, whatever the wire: `{ role, text }` with tool calls and results spelled out. */
interface Plain {
  role: string;
  text: string;
}

/** How one provider is set up and how its wire reads. */
interface ProviderCase {
  id: string;
  plugin: Plugin<any>;
  /** The plugin options; without `contextWindow`, `info()` asks the server. */
  options(url: string, contextWindow?: number): Record<string, unknown>;
  ref: string;
  path: string;
  /** Where `info()` asks for the context window, and the server's answer saying 2000 tokens. */
  info: { request: string; body?: Json; reply: Json };
  /** The body of an HTTP error response saying `message`. */
  errorBody(message: string): Json;
  reply(parts: ReplyParts): ScriptedResponse;
  /** The id the server gives the n-th call, if it gives one. */
  callId(n: number): string | undefined;
  problems(body: Json): string[];
  plain(body: Json): Plain[];
  /** The tool results of a body, in wire order. */
  toolResults(body: Json): { content: string; isError: boolean }[];
  /** The conversation part of the first request after compaction, exactly as this provider sends it. */
  afterCompaction: Json;
  stopReason: string;
}

const ephemeral = { type: "ephemeral" };
const windowOption = (contextWindow?: number) => (contextWindow === undefined ? {} : { contextWindow });
const summaryMessage = `Summary of the conversation so far:\n\n${SUMMARY}`;

const cases: ProviderCase[] = [
  {
    id: "anthropic",
    plugin: anthropic,
    options: (url, contextWindow) => ({ apiKey: "sk-ant-test", baseUrl: url, ...windowOption(contextWindow) }),
    ref: "anthropic/claude-test",
    path: "/v1/messages",
    errorBody: (message) => ({ type: "error", error: { type: "invalid_request_error", message } }),
    info: { request: "GET /v1/models/claude-test", reply: { id: "claude-test", type: "model", max_input_tokens: 2000 } },
    reply: anthropicReply,
    callId: (n) => `toolu_0${n}`,
    problems: anthropicWireProblems,
    plain: (body) => [
      ...(body.system ? [{ role: "system", text: body.system.map((block: Json) => block.text).join("\n\n") }] : []),
      ...body.messages.flatMap((message: Json) => message.content.map((block: Json) => ({ role: message.role, text: block.text ?? JSON.stringify(block) }))),
    ],
    toolResults: (body) =>
      body.messages.flatMap((message: Json) => message.content.filter((block: Json) => block.type === "tool_result").map((block: Json) => ({ content: block.content, isError: block.is_error === true }))),
    afterCompaction: {
      system: [{ type: "text", text: PROMPT, cache_control: ephemeral }],
      messages: [
        { role: "user", content: [{ type: "text", text: summaryMessage }, { type: "text", text: SECOND }] },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_03", name: "list_files", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_03", content: LISTING, cache_control: ephemeral }] },
      ],
    },
    stopReason: "end_turn",
  },
  {
    id: "openai-compatible",
    plugin: openrouter,
    options: (url, contextWindow) => ({ compatible: { baseUrl: `${url}/v1`, ...windowOption(contextWindow) } }),
    ref: "openai-compatible/local-model",
    path: "/v1/chat/completions",
    errorBody: (message) => ({ error: { code: 400, message } }),
    info: { request: "GET /v1/models", reply: { object: "list", data: [{ id: "other-model", max_model_len: 9999 }, { id: "local-model", object: "model", max_model_len: 2000 }] } },
    reply: chatCompletionsReply,
    callId: (n) => `call_${n}`,
    problems: chatCompletionsWireProblems,
    plain: roleMessagesAsText,
    toolResults: roleToolResults,
    afterCompaction: {
      messages: [
        { role: "system", content: PROMPT },
        { role: "user", content: summaryMessage },
        { role: "user", content: SECOND },
        { role: "assistant", content: null, tool_calls: [{ id: "call_3", type: "function", function: { name: "list_files", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "call_3", content: LISTING },
      ],
    },
    stopReason: "stop",
  },
  {
    id: "ollama",
    plugin: ollama,
    options: (url, contextWindow) => ({ baseUrl: url, ...windowOption(contextWindow) }),
    ref: "ollama/qwen3:8b",
    path: "/api/chat",
    errorBody: (message) => ({ error: message }),
    info: { request: "POST /api/show", body: { model: "qwen3:8b" }, reply: { model_info: { "general.architecture": "qwen3", "qwen3.context_length": 2000 } } },
    reply: (parts) => ollamaReply(parts),
    // Ollama usually names no call: weft makes ids up and never sends them back.
    callId: () => undefined,
    problems: ollamaWireProblems,
    plain: roleMessagesAsText,
    toolResults: roleToolResults,
    afterCompaction: {
      messages: [
        { role: "system", content: PROMPT },
        { role: "user", content: summaryMessage },
        { role: "user", content: SECOND },
        { role: "assistant", content: "", tool_calls: [{ function: { name: "list_files", arguments: {} } }] },
        { role: "tool", tool_name: "list_files", content: LISTING },
      ],
    },
    stopReason: "stop",
  },
];

/**
 * The conversation every provider plays. Turn 1: two parallel reads, then an answer. Turn 2: a listing,
 * after which the provider reports a prompt of 3400 tokens (85% of 4000), so compaction runs mid-turn
 * (the summary call), then two more parallel reads (one fails) and the answer.
 */
function script(provider: ProviderCase): ReplyParts[] {
  const call = (n: number, name: string, args: Record<string, unknown>) => ({ ...(provider.callId(n) ? { id: provider.callId(n) } : {}), name, arguments: args });
  return [
    { text: "Reading both files.", toolCalls: [call(1, "read_file", { path: "notes.txt" }), call(2, "read_file", { path: "todo.txt" })], usage: { prompt: 200, output: 20 } },
    { text: "Both are about the 2.0 release.", usage: { prompt: 1000, output: 10 } },
    { toolCalls: [call(3, "list_files", {})], usage: { prompt: 3400, output: 10 } },
    { text: SUMMARY, usage: { prompt: 700, output: 20 } },
    { toolCalls: [call(4, "read_file", { path: "release.txt" }), call(5, "read_file", { path: "missing.txt" })], usage: { prompt: 900, output: 15 } },
    { text: "release.txt says version=2.0.0; missing.txt does not exist.", usage: { prompt: 950, output: 15 } },
  ];
}

describe.each(cases)("the agent over $id, on its wire", (provider) => {
  let server: ScriptedServer;
  let kernel: Kernel;
  let dir: string;

  beforeEach(async () => {
    server = await startScriptedServer();
    kernel = createKernel({ logger: memoryLogger() });
    dir = await mkdtemp(path.join(tmpdir(), "weft-wire-"));
    await writeFile(path.join(dir, "notes.txt"), NOTES);
    await writeFile(path.join(dir, "todo.txt"), TODO);
    await writeFile(path.join(dir, "release.txt"), "version=2.0.0\n");
  });
  afterEach(async () => {
    await kernel.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("runs a parallel tool loop, compacts mid-turn, and every request body is one the provider accepts", async () => {
    await kernel.use(provider.plugin, provider.options(server.url, CONTEXT_WINDOW));
    await kernel.ready();
    const events: FeedbackEvent[] = [];
    kernel.hooks.feedback.tap((event) => void events.push(event));
    server.reply(...script(provider).map(provider.reply));
    const model = await kernel.createModel(provider.ref);
    const agent = createAgent({ model, kernel, compaction: { keepRecentTurns: 2 } });
    await agent.startSession({ prompt: PROMPT, tools: folderTools(dir) });

    const first = await agent.process(FIRST);
    expect(first.content).toBe("Both are about the 2.0 release.");
    const turnStart = events.length;
    const second = await agent.process(SECOND);
    expect(agent.messages().slice(0, 2)).toEqual([
      { role: "system", content: PROMPT },
      { role: "user", content: summaryMessage },
    ]);
    await agent.close();

    expect(second).toMatchObject({ status: "done", content: "release.txt says version=2.0.0; missing.txt does not exist." });
    // The summary call counts in the turn's tokens, not as an iteration.
    expect(second.metadata).toMatchObject({ iterations: 3, toolCalls: 3, stopReason: provider.stopReason, usage: { promptTokens: 3400 + 700 + 900 + 950, outputTokens: 60 } });

    const bodies = server.requests.map((request) => request.json());
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(Array(6).fill(`POST ${provider.path}`));
    // Parts kept from one request to the next (encodeJsonBody) still make exactly the plain JSON text.
    for (const request of server.requests) expect(request.body).toBe(JSON.stringify(request.json()));
    for (const [index, body] of bodies.entries()) expect({ index, problems: provider.problems(body) }).toEqual({ index, problems: [] });

    // Parallel results go back in call order, and a failed call is a result the model reads.
    expect(provider.toolResults(defined(bodies[1])).map((result) => result.content)).toEqual([NOTES, TODO]);
    expect(provider.toolResults(defined(bodies[5])).slice(-2)).toEqual([
      { content: "version=2.0.0\n", isError: false },
      { content: "no such file: missing.txt", isError: provider.id === "anthropic" },
    ]);

    // Compaction ran between the listing and the next model call, within the turn.
    const turn = events.slice(turnStart).filter((event) => ["model.request", "tool.returned", "turn.finished"].includes(event.type) || event.type.startsWith("compaction."));
    expect(turn.map((event) => ("name" in event ? `${event.type} ${event.name}` : event.type))).toEqual([
      "model.request",
      "tool.returned list_files",
      "compaction.started",
      "model.request",
      "compaction.finished",
      "model.request",
      "tool.returned read_file",
      "tool.returned read_file",
      "model.request",
      "turn.finished",
    ]);
    const started = turn.find((event) => event.type === "compaction.started") as FeedbackEventOf<"compaction.started">;
    const finished = turn.find((event) => event.type === "compaction.finished") as FeedbackEventOf<"compaction.finished">;
    expect(started.thresholdTokens).toBe(THRESHOLD);
    expect(started.estimatedTokens).toBeGreaterThanOrEqual(THRESHOLD);
    expect(finished).toMatchObject({ before: started.estimatedTokens, after: expect.any(Number) });
    expect(finished.after).toBeLessThan(THRESHOLD);
    // The old reads were pruned first, then the older turns summarised.
    expect(finished.stages.map((stage) => [stage.stage, stage.messages])).toEqual([
      ["prune", 2],
      ["summarise", 5],
    ]);

    // The summary request: the instructions as the system prompt, the older turns as plain text, no tools.
    expect(defined(bodies[3]).tools).toBeUndefined();
    expect(provider.plain(defined(bodies[3]))).toEqual([
      { role: "system", text: SUMMARY_INSTRUCTIONS },
      {
        role: "user",
        text:
          "Summarise this conversation:\n\n<transcript>\n" +
          `[user]\n${FIRST}\n\n` +
          "[assistant]\nReading both files.\n\n" +
          '[assistant called read_file]\n{"path":"notes.txt"}\n\n' +
          '[assistant called read_file]\n{"path":"todo.txt"}\n\n' +
          `[read_file returned]\n${pruned(NOTES)}\n\n` +
          `[read_file returned]\n${pruned(TODO)}\n\n` +
          "[assistant]\nBoth are about the 2.0 release.\n" +
          "</transcript>",
      },
    ]);

    // After compaction: the system prompt, the summary, then the recent turns verbatim.
    const { system, messages } = defined(bodies[4]);
    expect(system === undefined ? { messages } : { system, messages }).toEqual(provider.afterCompaction);
    expect(defined(bodies[4]).tools.length).toBe(2);
    expect(defined(bodies[5]).messages.slice(0, messages.length)).toEqual(messages.map(withoutCacheMark));
  });

  it("compacts a long tool loop: the user's request stays verbatim, the earlier rounds are summarised after it, the last round stays", async () => {
    await kernel.use(provider.plugin, provider.options(server.url, CONTEXT_WINDOW));
    await kernel.ready();
    const call = (n: number, name: string, args: Record<string, unknown>) => ({ ...(provider.callId(n) ? { id: provider.callId(n) } : {}), name, arguments: args });
    const replies: ReplyParts[] = [
      { toolCalls: [call(1, "read_file", { path: "notes.txt" })], usage: { prompt: 300, output: 10 } },
      { toolCalls: [call(2, "read_file", { path: "todo.txt" })], usage: { prompt: 900, output: 10 } },
      { toolCalls: [call(3, "list_files", {})], usage: { prompt: 3400, output: 10 } },
      { text: SUMMARY, usage: { prompt: 400, output: 20 } },
      { toolCalls: [call(4, "read_file", { path: "release.txt" })], usage: { prompt: 800, output: 10 } },
      { text: "All read.", usage: { prompt: 850, output: 5 } },
    ];
    server.reply(...replies.map(provider.reply));
    const agent = createAgent({ model: await kernel.createModel(provider.ref), kernel, compaction: { keepRecentTurns: 2 } });
    await agent.startSession({ prompt: PROMPT, tools: folderTools(dir) });
    const response = await agent.process("Read every file, one at a time.");
    await agent.close();

    expect(response).toMatchObject({ status: "done", content: "All read.", metadata: { iterations: 5, toolCalls: 4 } });
    const bodies = server.requests.map((request) => request.json());
    expect(bodies).toHaveLength(6);
    for (const [index, body] of bodies.entries()) expect({ index, problems: provider.problems(body) }).toEqual({ index, problems: [] });
    // The earlier rounds are summarised, the request itself is not; the latest round stays verbatim.
    const summarised = defined(provider.plain(defined(bodies[3]))[1]).text;
    expect(summarised).not.toContain("Read every file, one at a time.");
    expect(summarised).toContain(`[assistant called read_file]\n{"path":"notes.txt"}\n\n[read_file returned]\n${pruned(NOTES)}`);
    const after = defined(bodies[4]);
    expect(provider.plain(after).slice(0, 2)).toEqual([
      { role: "system", text: PROMPT },
      { role: "user", text: "Read every file, one at a time." },
    ]);
    expect(provider.plain(after)).toContainEqual({ role: "user", text: summaryMessage });
    expect(after.messages.map((message: Json) => message.role)).toEqual(
      provider.id === "anthropic" ? ["user", "assistant", "user"] : ["system", "user", "user", "assistant", "tool"],
    );
    expect(provider.toolResults(after).map((result) => result.content)).toEqual([LISTING]);
  });

  it("asks the provider for the context window once, on its own endpoint, and compacts against it", async () => {
    await kernel.use(provider.plugin, provider.options(server.url));
    await kernel.ready();
    const events: FeedbackEvent[] = [];
    kernel.hooks.feedback.tap((event) => void events.push(event));
    server.reply(
      { headers: { "content-type": "application/json" }, body: JSON.stringify(provider.info.reply) },
      provider.reply({ text: "Noted.", usage: { prompt: 1900, output: 10 } }),
      provider.reply({ text: SUMMARY, usage: { prompt: 100, output: 20 } }),
      provider.reply({ text: "Done.", usage: { prompt: 150, output: 5 } }),
    );
    // The scripted sizes are far above the transcript's: dropping turns would take the summary too.
    const agent = createAgent({ model: await kernel.createModel(provider.ref), kernel, compaction: { drop: false } });
    await agent.process(FIRST);
    await agent.process(SECOND);
    await agent.close();

    const [info, ...chats] = server.requests;
    expect(`${defined(info).method} ${defined(info).path}`).toBe(provider.info.request);
    if (provider.info.body) expect(defined(info).json()).toEqual(provider.info.body);
    expect(chats.map((request) => request.path)).toEqual(Array(3).fill(provider.path));
    // 85% of the 2000 tokens the server reported; the first turn's 1910 tokens pass it.
    expect(events.find((event) => event.type === "compaction.started")).toMatchObject({ thresholdTokens: 1700 });
    // The first turn is summarised; this turn's question stays.
    expect(provider.plain(defined(chats[2]).json())).toEqual([
      { role: "user", text: summaryMessage },
      { role: "user", text: SECOND },
    ]);
  });

  it("drops the older turns when the provider refuses the summary request, and goes on", async () => {
    await kernel.use(provider.plugin, provider.options(server.url, 2000));
    await kernel.ready();
    const events: FeedbackEvent[] = [];
    kernel.hooks.feedback.tap((event) => void events.push(event));
    server.reply(
      provider.reply({ text: "Noted.", usage: { prompt: 1900, output: 10 } }),
      { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify(provider.errorBody("summary refused by the test")) },
      provider.reply({ text: "Done.", usage: { prompt: 1950, output: 5 } }),
    );
    const agent = createAgent({ model: await kernel.createModel(provider.ref), kernel, compaction: { keepRecentTurns: 2 } });
    await agent.process(FIRST);
    const response = await agent.process(SECOND);
    await agent.close();

    expect(response).toMatchObject({ status: "done", content: "Done." });
    // A 400 is not retried: three requests; the last carries this turn's question, the older turn dropped.
    expect(server.requests).toHaveLength(3);
    expect(provider.plain(defined(server.requests[2]).json())).toEqual([{ role: "user", text: SECOND }]);
    const failed = events.find((event) => event.type === "compaction.failed") as FeedbackEventOf<"compaction.failed">;
    expect(failed.reason).toContain("HTTP 400");
    expect(failed.reason).toContain("summary refused by the test");
    const finished = events.find((event) => event.type === "compaction.finished") as FeedbackEventOf<"compaction.finished">;
    expect(finished.stages).toEqual([{ stage: "drop", removedTokens: expect.any(Number), messages: 2 }]);
  });
});

/** The previous request's last message carried the cache breakpoint; the next one moves it on. */
function withoutCacheMark(message: Json): Json {
  if (!Array.isArray(message.content)) return message;
  return { ...message, content: message.content.map(({ cache_control: _, ...block }: Json) => block) };
}
