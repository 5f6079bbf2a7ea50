import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent, createKernel } from "@weft/core";
import { memoryLogger, type AssistantMessage, type Kernel, type Message, type Tool } from "@weft/sdk";
import { defined, startScriptedServer, type ScriptedServer } from "@weft/sdk/testing";
import anthropic from "@weft/plugin-anthropic";
import ollama from "@weft/plugin-ollama";
import openrouter from "@weft/plugin-openrouter";
import { folderTools } from "./folder-tools.js";
import { anthropicReply, chatCompletionsReply, ollamaReply } from "./wire-replies.js";
import { anthropicWireProblems, chatCompletionsWireProblems, ollamaWireProblems } from "./wire-rules.js";

const PROMPT = "You are a careful release assistant.";
const NOTES = "Release 2.0 ships on Friday.\n";
const TODO = "- update the changelog\n";
const LISTING = "notes.txt\ntodo.txt";
const Q1 = "What does notes.txt say?";
const A1 = "notes.txt says the release ships on Friday.";
const Q2 = "And todo.txt? Which files are there?";
const A2 = "todo.txt asks for a changelog update; there are two files.";
const Q3 = "Read notes.txt once more and sum it up.";
const A3 = "Release 2.0 ships on Friday, once the changelog is updated.";
const Q4 = "Thanks.";
const ephemeral = { type: "ephemeral" };

/**
 * One conversation that changes provider mid-way: Anthropic (thinking with a signature, a tool call),
 * then an OpenAI-compatible server (two parallel calls), then Ollama (its own thinking, a call without an
 * id), then Anthropic again. Each agent continues the transcript the previous one left.
 */
describe("a conversation that moves between providers", () => {
  let server: ScriptedServer;
  let kernel: Kernel;
  let dir: string;
  let tools: Tool<any>[];

  beforeEach(async () => {
    server = await startScriptedServer();
    dir = await mkdtemp(path.join(tmpdir(), "weft-switch-"));
    await writeFile(path.join(dir, "notes.txt"), NOTES);
    await writeFile(path.join(dir, "todo.txt"), TODO);
    tools = folderTools(dir);
    kernel = createKernel({ logger: memoryLogger() });
    await kernel.use(anthropic, { apiKey: "sk-ant-test", baseUrl: server.url });
    await kernel.use(openrouter, { compatible: { baseUrl: `${server.url}/v1` } });
    await kernel.use(ollama, { baseUrl: server.url });
    await kernel.ready();
  });
  afterEach(async () => {
    await kernel.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Continues `messages` on `ref` with the same tools, for one `process(input)`. */
  async function continueOn(ref: string, messages: Message[] | undefined, input: string): Promise<{ content: string; messages: Message[] }> {
    const agent = createAgent({ model: await kernel.createModel(ref), kernel, compaction: false });
    await agent.startSession(messages ? { messages, tools } : { prompt: PROMPT, tools });
    const response = await agent.process(input);
    const transcript = agent.messages();
    await agent.close();
    return { content: response.content, messages: transcript };
  }

  it("keeps one provider-neutral transcript that each wire accepts, replaying only a provider's own reasoning", async () => {
    const [readSchema, listSchema] = tools.map((tool) => tool.inputSchema);
    server.reply(
      anthropicReply({
        thinking: { text: "The user wants notes.txt; I will read it.", signature: "sig-anthropic-1" },
        text: "Let me read it.",
        toolCalls: [{ id: "toolu_01", name: "read_file", arguments: { path: "notes.txt" } }],
        usage: { prompt: 120, output: 30 },
      }),
      anthropicReply({ text: A1, usage: { prompt: 160, output: 12 } }),
      chatCompletionsReply({
        toolCalls: [
          { id: "call_1", name: "read_file", arguments: { path: "todo.txt" } },
          { id: "call_2", name: "list_files", arguments: {} },
        ],
        usage: { prompt: 200, output: 20 },
      }),
      chatCompletionsReply({ text: A2, usage: { prompt: 240, output: 15 } }),
      ollamaReply({ thinking: { text: "I read notes.txt again." }, toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }], usage: { prompt: 300, output: 25 } }, "2025-07-07T20:30:00Z"),
      ollamaReply({ text: A3, usage: { prompt: 330, output: 14 } }, "2025-07-07T20:30:05Z"),
      anthropicReply({ text: "You're welcome.", usage: { prompt: 400, output: 5 } }),
    );

    const onAnthropic = await continueOn("anthropic/claude-test", undefined, Q1);
    const onCompatible = await continueOn("openai-compatible/local-model", onAnthropic.messages, Q2);
    const onOllama = await continueOn("ollama/qwen3:8b", onCompatible.messages, Q3);
    const back = await continueOn("anthropic/claude-test", onOllama.messages, Q4);
    expect([onAnthropic.content, onCompatible.content, onOllama.content, back.content]).toEqual([A1, A2, A3, "You're welcome."]);

    expect(server.requests.map((request) => request.path)).toEqual([
      "/v1/messages",
      "/v1/messages",
      "/v1/chat/completions",
      "/v1/chat/completions",
      "/api/chat",
      "/api/chat",
      "/v1/messages",
    ]);
    const bodies = server.requests.map((request) => request.json());
    const problems = [anthropicWireProblems, anthropicWireProblems, chatCompletionsWireProblems, chatCompletionsWireProblems, ollamaWireProblems, ollamaWireProblems, anthropicWireProblems];
    expect(bodies.map((body, index) => defined(problems[index])(body))).toEqual(bodies.map(() => []));

    // The transcript keeps the Anthropic thinking on its message, marked as Anthropic's.
    const thinkingMessage = onAnthropic.messages[2] as AssistantMessage;
    expect(thinkingMessage.reasoning).toEqual([{ provider: "anthropic", text: "The user wants notes.txt; I will read it.", signature: "sig-anthropic-1" }]);
    // Ollama gave its call no id: the transcript has a made-up one, which Ollama is never sent.
    const ollamaCall = defined(defined((onOllama.messages[11] as AssistantMessage).toolCalls)[0]);
    expect(ollamaCall.id).toMatch(/^ollama_call_[0-9a-f]{16}$/);

    const anthropicTools = [
      { name: "list_files", description: "List the files of the workspace", input_schema: listSchema },
      { name: "read_file", description: "Read a text file of the workspace", input_schema: readSchema, cache_control: ephemeral },
    ];
    const functionTools = [
      { type: "function", function: { name: "list_files", description: "List the files of the workspace", parameters: listSchema } },
      { type: "function", function: { name: "read_file", description: "Read a text file of the workspace", parameters: readSchema } },
    ];

    // Anthropic's second request replays its own thinking block, signature and all.
    expect(bodies[1]).toEqual({
      model: "claude-test",
      max_tokens: 8192,
      system: [{ type: "text", text: PROMPT, cache_control: ephemeral }],
      messages: [
        { role: "user", content: [{ type: "text", text: Q1 }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "The user wants notes.txt; I will read it.", signature: "sig-anthropic-1" },
            { type: "text", text: "Let me read it." },
            { type: "tool_use", id: "toolu_01", name: "read_file", input: { path: "notes.txt" } },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01", content: NOTES, cache_control: ephemeral }] },
      ],
      tools: anthropicTools,
      stream: true,
    });

    // The OpenAI-compatible server gets the same conversation without the thinking, calls as JSON strings.
    const compatibleHistory = [
      { role: "system", content: PROMPT },
      { role: "user", content: Q1 },
      { role: "assistant", content: "Let me read it.", tool_calls: [{ id: "toolu_01", type: "function", function: { name: "read_file", arguments: '{"path":"notes.txt"}' } }] },
      { role: "tool", tool_call_id: "toolu_01", content: NOTES },
      { role: "assistant", content: A1 },
      { role: "user", content: Q2 },
    ];
    expect(bodies[2]).toEqual({
      model: "local-model",
      messages: compatibleHistory,
      tools: functionTools,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(defined(bodies[3]).messages).toEqual([
      ...compatibleHistory,
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"todo.txt"}' } },
          { id: "call_2", type: "function", function: { name: "list_files", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: TODO },
      { role: "tool", tool_call_id: "call_2", content: LISTING },
    ]);

    // Ollama: object arguments, tool_name on results, the other providers' ids kept, no foreign reasoning.
    const ollamaHistory = [
      { role: "system", content: PROMPT },
      { role: "user", content: Q1 },
      { role: "assistant", content: "Let me read it.", tool_calls: [{ id: "toolu_01", function: { name: "read_file", arguments: { path: "notes.txt" } } }] },
      { role: "tool", tool_name: "read_file", content: NOTES, tool_call_id: "toolu_01" },
      { role: "assistant", content: A1 },
      { role: "user", content: Q2 },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "call_1", function: { name: "read_file", arguments: { path: "todo.txt" } } },
          { id: "call_2", function: { name: "list_files", arguments: {} } },
        ],
      },
      { role: "tool", tool_name: "read_file", content: TODO, tool_call_id: "call_1" },
      { role: "tool", tool_name: "list_files", content: LISTING, tool_call_id: "call_2" },
      { role: "assistant", content: A2 },
      { role: "user", content: Q3 },
    ];
    expect(bodies[4]).toEqual({ model: "qwen3:8b", messages: ollamaHistory, tools: functionTools, think: false, stream: true });
    // Its own thinking goes back as `thinking`; its made-up call id does not go back at all.
    expect(defined(bodies[5]).messages).toEqual([
      ...ollamaHistory,
      { role: "assistant", content: "", thinking: "I read notes.txt again.", tool_calls: [{ function: { name: "read_file", arguments: { path: "notes.txt" } } }] },
      { role: "tool", tool_name: "read_file", content: NOTES },
    ]);

    // Back on Anthropic: its own thinking is replayed, Ollama's is not; every call and result maps to blocks.
    expect(bodies[6]).toEqual({
      model: "claude-test",
      max_tokens: 8192,
      system: [{ type: "text", text: PROMPT, cache_control: ephemeral }],
      messages: [
        { role: "user", content: [{ type: "text", text: Q1 }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "The user wants notes.txt; I will read it.", signature: "sig-anthropic-1" },
            { type: "text", text: "Let me read it." },
            { type: "tool_use", id: "toolu_01", name: "read_file", input: { path: "notes.txt" } },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01", content: NOTES }] },
        { role: "assistant", content: [{ type: "text", text: A1 }] },
        { role: "user", content: [{ type: "text", text: Q2 }] },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "call_1", name: "read_file", input: { path: "todo.txt" } },
            { type: "tool_use", id: "call_2", name: "list_files", input: {} },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "call_1", content: TODO },
            { type: "tool_result", tool_use_id: "call_2", content: LISTING },
          ],
        },
        { role: "assistant", content: [{ type: "text", text: A2 }] },
        { role: "user", content: [{ type: "text", text: Q3 }] },
        { role: "assistant", content: [{ type: "tool_use", id: ollamaCall.id, name: "read_file", input: { path: "notes.txt" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: ollamaCall.id, content: NOTES }] },
        { role: "assistant", content: [{ type: "text", text: A3 }] },
        { role: "user", content: [{ type: "text", text: Q4, cache_control: ephemeral }] },
      ],
      tools: anthropicTools,
      stream: true,
    });
  });
});
