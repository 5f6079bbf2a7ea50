import { afterEach, describe, expect, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Type } from "typebox";
import { createToolkit, type Toolkit } from "@weft/core";
import { defineTool } from "@weft/sdk";
import { serveHttp, type ServedHttp } from "./serve-toolkit.js";

const add = defineTool({
  name: "add",
  description: "Add two numbers",
  input: Type.Object({ a: Type.Number(), b: Type.Number() }),
  annotations: { readOnlyHint: true },
  execute: ({ a, b }) => ({ output: String(a + b) }),
});

const greet = defineTool({
  name: "greet",
  description: "Greet someone, asking their name",
  input: Type.Object({}),
  execute: (_args, ctx) =>
    ctx.answer?.action === "accept" ? { output: `Hello, ${String(ctx.answer.content)}!` } : { output: "", pending: { kind: "question", message: "What is your name?" } },
});

const skills = [{ name: "haiku", description: "Write a haiku <5-7-5>", content: "Count the syllables." }];

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

async function served(): Promise<{ toolkit: Toolkit; http: ServedHttp }> {
  const toolkit = await createToolkit({ builtins: false, extraTools: [add, greet], skills });
  open.push(toolkit);
  const http = await serveHttp(toolkit);
  open.push(http);
  return { toolkit, http };
}

async function connect(url: string, capabilities: Record<string, unknown> = {}): Promise<Client> {
  const client = new Client({ name: "test-client", version: "1.0.0" }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  open.push(client);
  return client;
}

describe("a weft toolkit served as one MCP server", () => {
  it("listens on 127.0.0.1 and lists every tool under its weft name with its schema and annotations", async () => {
    const { http } = await served();
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(http.url);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["add", "greet", "skill_execute_file", "skill_load", "skill_load_file"]);
    expect(tools[0]).toEqual({ name: "add", description: "Add two numbers", inputSchema: add.inputSchema, annotations: { readOnlyHint: true } });
  });

  it("runs each call through weft's execute path: validation and the gate apply", async () => {
    const { toolkit, http } = await served();
    const client = await connect(http.url);
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).toEqual({ content: [{ type: "text", text: "5" }] });
    expect(await client.callTool({ name: "add", arguments: { a: "2" } })).toEqual({
      content: [{ type: "text", text: "invalid arguments for add:\n- (arguments): must have required properties b\n- /a: must be number" }],
      isError: true,
    });
    toolkit.kernel.tools.setInterceptor(() => ({ action: "deny", reason: "read-only today" }));
    expect(await client.callTool({ name: "add", arguments: { a: 1, b: 1 } })).toEqual({ content: [{ type: "text", text: "tool call blocked: read-only today" }], isError: true });
  });

  it("gives the skills catalog as instructions and each skill as a prompt that loads it", async () => {
    const { toolkit, http } = await served();
    const client = await connect(http.url);
    expect(client.getInstructions()).toBe(toolkit.prompt);
    expect(await client.listPrompts()).toEqual({ prompts: [{ name: "haiku", description: "Write a haiku <5-7-5>" }] });
    const prompt = await client.getPrompt({ name: "haiku" });
    expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: '<skill name="haiku">\nCount the syllables.\n</skill>' } }]);
    await expect(client.getPrompt({ name: "limerick" })).rejects.toThrow("unknown prompt: limerick");
  });

  it("forwards a suspension to a client that supports elicitation, and tells one that does not", async () => {
    const { http } = await served();
    const eliciting = await connect(http.url, { elicitation: {} });
    const asked: unknown[] = [];
    eliciting.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return { action: "accept", content: { answer: "Ada" } };
    });
    expect(await eliciting.callTool({ name: "greet", arguments: {} })).toEqual({ content: [{ type: "text", text: "Hello, Ada!" }] });
    expect(asked).toEqual([
      { mode: "form", message: "What is your name?", requestedSchema: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] } },
    ]);
    const plain = await connect(http.url);
    expect(await plain.callTool({ name: "greet", arguments: {} })).toEqual({
      content: [{ type: "text", text: "greet is waiting for the user: What is your name? (this host cannot answer it)" }],
      isError: true,
    });
  });

  it("sends tools/list_changed when the toolkit's tool list changes, then lists the new tool", async () => {
    const { toolkit, http } = await served();
    const client = await connect(http.url);
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void notified++);
    // A tool added at run time by a plugin scope: no MCP event, only the registry's own change event.
    const late = toolkit.kernel.scope("late-pack");
    open.push({ close: () => late.dispose() });
    const shout = defineTool({ name: "shout", description: "Shout", input: Type.Object({}), execute: () => ({ output: "HEY" }) });
    // The client opens its notification stream (an SSE GET) after initializing, a moment after connect
    // returns; a notification sent before it opens has nowhere to go, so the change is repeated until heard.
    for (let attempt = 0; attempt < 100 && notified === 0; attempt++) {
      late.tools.add(shout)();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(notified).toBeGreaterThan(0);
    const heard = notified;
    late.tools.add(shout);
    await vi.waitFor(() => expect(notified).toBeGreaterThan(heard), { timeout: 30_000 });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("shout");
  });

  it("is a server weft itself can use as an MCP client, its tools prefixed by the server's name", async () => {
    const { http } = await served();
    const outer = await createToolkit({ builtins: false, mcpConfig: { mcpServers: { inner: { url: http.url } } } });
    open.push(outer);
    expect(outer.tools.map((tool) => tool.name)).toEqual(["inner__add", "inner__greet", "inner__skill_execute_file", "inner__skill_load", "inner__skill_load_file"]);
    expect(await outer.execute({ name: "inner__add", arguments: { a: 20, b: 22 } })).toMatchObject({ output: "42" });
  });
});
