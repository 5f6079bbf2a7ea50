import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryLogger, type Kernel, type MemoryLogger, type ToolProgress, type ToolResult } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import mcp from "./index.js";
import { feedbackRecorder, mcpHost, startEverythingHttp, stdio } from "./test-fixtures/harness.js";

/** The three npm reference servers over stdio, in one kernel, the way an mcp.json names them. */
describe("real servers over stdio: everything, filesystem, memory", () => {
  let kernel: Kernel;
  let logger: MemoryLogger;
  let dir: string;
  const recorder = feedbackRecorder();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "weft-mcp-"));
    await writeFile(join(dir, "hello.txt"), "hello from disk\n");
    logger = memoryLogger();
    const config = {
      mcpServers: {
        everything: stdio("everything"),
        files: { ...stdio("filesystem", dir) },
        memory: { ...stdio("memory"), env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } },
        sums: { ...stdio("everything"), tools: ["get-sum", "echo", "no-such-tool", "!echo"] },
      },
    };
    kernel = await createTestKernel([recorder.plugin, [mcp, { config, elicitation: true }]], { logger });
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("registers every server's tools as <server>__<tool>, sourced from the server", () => {
    const names = kernel.tools.list().map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["everything__get-sum", "everything__get-tiny-image", "files__read_text_file", "memory__create_entities"]));
    expect(kernel.tools.get("everything__get-sum")?.source).toEqual({ kind: "mcp", id: "everything" });
    expect(kernel.tools.get("everything__get-sum")?.description).toBe("Returns the sum of two numbers");
    expect(mcpHost(kernel).status().map(({ name, state }) => `${name}:${state}`)).toEqual(["everything:connected", "files:connected", "memory:connected", "sums:connected"]);
  });

  it("applies a server's tools allow/drop list and warns about names it does not publish", () => {
    expect(kernel.tools.list().filter((tool) => tool.source.id === "sums").map((tool) => tool.name)).toEqual(["sums__get-sum"]);
    expect(logger.warnings()).toContain('MCP server "sums": "tools" names "no-such-tool", which the server does not publish');
  });

  it("calls a tool through the kernel's execute path", async () => {
    const result = await kernel.execute({ name: "everything__get-sum", arguments: { a: 1, b: 2 } });
    expect(result.output).toBe("The sum of 1 and 2 is 3.");
    expect(result.isError).toBeUndefined();
    expect(result.metadata).toMatchObject({ server: "everything", tool: "get-sum", content: [{ type: "text", text: "The sum of 1 and 2 is 3." }] });
  });

  it("flattens an image to a description and keeps the block on metadata", async () => {
    const result = await kernel.execute({ name: "everything__get-tiny-image", arguments: {} });
    expect(result.output).toBe("Here's the image you requested:\n[image: image/png, 4033 bytes]\nThe image above is the MCP logo.");
    const image = (result.metadata!.content as { type: string; data?: string }[]).find((block) => block.type === "image");
    expect(Buffer.from(image!.data!, "base64").length).toBe(4033);
  });

  it("flattens embedded resources and resource links", async () => {
    const text = await kernel.execute({ name: "everything__get-resource-reference", arguments: { resourceType: "Text", resourceId: 3 } });
    expect(text.output.split("\n")).toEqual([
      "Returning resource reference for Resource 3:",
      expect.stringMatching(/^Resource 3: This is a plaintext resource created at /),
      "You can access this resource using the URI: demo://resource/dynamic/text/3",
    ]);
    const blob = await kernel.execute({ name: "everything__get-resource-reference", arguments: { resourceType: "Blob", resourceId: 2 } });
    // The blob's text carries the server's local time, so its size depends on the hour ("1:05" or "12:05").
    const embedded = (blob.metadata!.content as { type: string; resource?: { blob?: string } }[]).find((block) => block.type === "resource");
    const decoded = Buffer.from(embedded!.resource!.blob!, "base64");
    expect(decoded.toString()).toMatch(/^Resource 2: This is a base64 blob created at /);
    expect(blob.output.split("\n")[1]).toBe(`[embedded resource: demo://resource/dynamic/blob/2 (text/plain, ${decoded.length} bytes)]`);
    const links = await kernel.execute({ name: "everything__get-resource-links", arguments: { count: 2 } });
    expect(links.output).toBe(
      "Here are 2 resource links to resources available in this server:\n[resource: demo://resource/dynamic/blob/1]\n[resource: demo://resource/dynamic/text/2]",
    );
  });

  it("keeps structured content on metadata", async () => {
    const result = await kernel.execute({ name: "everything__get-structured-content", arguments: { location: "New York" } });
    const structured = result.metadata?.structuredContent as Record<string, unknown>;
    expect(Object.keys(structured).sort()).toEqual(["conditions", "humidity", "temperature"]);
    expect(JSON.parse(result.output)).toEqual(structured);
  });

  it("runs a task-only tool as an MCP task: its stages as progress, then the result", async () => {
    const seen: ToolProgress[] = [];
    const result = await kernel.execute({ name: "everything__simulate-research-query", arguments: { topic: "weft" } }, { onProgress: (progress) => seen.push(progress) });
    expect(result.isError).toBeUndefined();
    expect(result.output).toMatch(/^# Research Report: weft\n/);
    expect(result.output).toContain("- Stage 4: Generating report ✓");
    // Each poll reports the task's status message; how many stages a poll sees depends on timing, their order does not.
    const order = ["Gathering sources...", "Analyzing content...", "Synthesizing findings...", "Generating report..."];
    const stages = [...new Set(seen.flatMap((progress) => (progress.message ? [progress.message] : [])))];
    expect(stages.length).toBeGreaterThan(0);
    expect(stages.map((stage) => order.indexOf(stage))).toEqual([...stages.map((stage) => order.indexOf(stage))].sort((a, b) => a - b).filter((index) => index >= 0));
  }, 30_000);

  it("asks the task's question (input_required) as a pending elicitation, and the answer reaches the task", async () => {
    const call = { name: "everything__simulate-research-query", arguments: { topic: "python", ambiguous: true } };
    const asked = await kernel.execute(call);
    expect(asked.pending).toMatchObject({ kind: "elicitation", message: 'The research query "python" could have multiple interpretations. Please clarify what you\'re looking for:' });
    const result = await kernel.execute(call, { answer: { action: "accept", content: { interpretation: "snake" } }, pending: asked.pending });
    expect(result.output).toMatch(/^# Research Report: python \(snake\)\n/);
  }, 30_000);

  it("reports progress of a long-running call to the caller and as feedback", async () => {
    const seen: ToolProgress[] = [];
    const result = await kernel.execute(
      { id: "progress-call", name: "everything__trigger-long-running-operation", arguments: { duration: 0.4, steps: 4 } },
      { onProgress: (progress) => seen.push(progress) },
    );
    expect(result.output).toBe("Long running operation completed. Duration: 0.4 seconds, Steps: 4.");
    expect(seen.map(({ progress, total }) => `${progress}/${total}`)).toEqual(["1/4", "2/4", "3/4", "4/4"]);
    const events = recorder.events.filter((event) => event.type === "tool.progress" && event.callId === "progress-call");
    expect(events).toHaveLength(4);
  });

  it("registers the tools a server adds after initialization for an elicitation-capable client", () => {
    expect(kernel.tools.get("everything__trigger-elicitation-request")).toBeDefined();
    expect(kernel.tools.get("everything__trigger-url-elicitation")).toBeDefined();
  });

  it("bridges a form elicitation to a pending request and resumes the same call with the answer", async () => {
    const call = { name: "everything__trigger-elicitation-request", arguments: {} };
    const first = await kernel.execute(call);
    expect(first.output).toBe('MCP server "everything" asks: Please provide inputs for the following fields:');
    expect(first.pending).toMatchObject({ kind: "elicitation", message: "Please provide inputs for the following fields:", data: { server: "everything", mode: "form" } });
    expect(first.pending?.schema).toMatchObject({ type: "object", required: ["name"] });
    const answered = await kernel.execute(call, { pending: first.pending, answer: { action: "accept", content: { name: "Ada Lovelace", check: true } } });
    expect(answered.isError).toBeUndefined();
    // Fields the host left out are filled from the schema's defaults.
    expect(answered.output).toContain("✅ User provided the requested information!");
    expect(answered.output).toContain("- Name: Ada Lovelace\n- Agreed to terms: true");
    expect(answered.output).toContain("- Favorite Integer: 42");
  });

  it("maps a declined elicitation back to the server", async () => {
    const call = { name: "everything__trigger-elicitation-request", arguments: {} };
    const first = await kernel.execute(call);
    const declined = await kernel.execute(call, { pending: first.pending, answer: { action: "decline" } });
    expect(declined.output).toContain("❌ User declined to provide the requested information.");
  });

  it("turns a -32042 URL-elicitation-required error into a URL request, and runs the call again once it is accepted", async () => {
    const call = { name: "everything__trigger-url-elicitation", arguments: { url: "https://example.com/pay", message: "Pay here", errorPath: true } };
    const first = await kernel.execute(call);
    expect(first).toMatchObject({
      output: 'MCP server "everything" asks: Open this link to satisfy the prerequisite, then retry the request.',
      pending: { kind: "elicitation", url: "https://modelcontextprotocol.io", data: { server: "everything", mode: "url", retry: true } },
    });
    // Accepted: the call runs again, and the server goes on to its own question.
    const second = await kernel.execute(call, { pending: first.pending, answer: { action: "accept" } });
    expect(second.pending).toMatchObject({ kind: "elicitation", url: "https://example.com/pay", message: "Pay here" });
    const done = await kernel.execute(call, { pending: second.pending, answer: { action: "accept" } });
    expect(done.output).toContain("✅ User completed the URL elicitation flow.");

    const refused = await kernel.execute(call);
    expect(await kernel.execute(call, { pending: refused.pending, answer: { action: "decline" } })).toEqual({
      output: "trigger-url-elicitation needs the user to complete a step at https://modelcontextprotocol.io first, and they did not (decline)",
      isError: true,
      metadata: { server: "everything", tool: "trigger-url-elicitation" },
    });
  });

  it("bridges a URL elicitation", async () => {
    const call = { name: "everything__trigger-url-elicitation", arguments: { url: "https://example.com/authorize", message: "Open the page", elicitationId: "e-1" } };
    const first = await kernel.execute(call);
    expect(first.pending).toMatchObject({ kind: "elicitation", url: "https://example.com/authorize", data: { mode: "url" } });
    expect(first.pending?.schema).toBeUndefined();
    expect(first.output).toBe('MCP server "everything" asks: Open the page');
    const answered = await kernel.execute(call, { pending: first.pending, answer: { action: "accept" } });
    expect(answered.output).toBe('✅ User completed the URL elicitation flow.\nElicitation ID: e-1\nURL: https://example.com/authorize\n\nRaw result: {\n  "action": "accept"\n}');
    const again = await kernel.execute(call);
    const cancelled = await kernel.execute(call, { pending: again.pending, answer: { action: "cancel" } });
    expect(cancelled.output).toContain("⚠️ User cancelled the URL elicitation (Elicitation ID: e-1).");
  });

  it("says so when an answer comes for a question nobody is waiting on", async () => {
    const result = await kernel.execute(
      { name: "everything__trigger-elicitation-request", arguments: {} },
      { pending: { kind: "elicitation", message: "?", data: { server: "everything", token: "stale", mode: "form" } }, answer: { action: "accept", content: {} } },
    );
    expect(result).toEqual({
      output:
        'the question MCP server "everything" asked during trigger-elicitation-request is no longer waiting for an answer (the call ended, or the question expired); run the tool again',
      isError: true,
    });
  });

  it("lists and reads resources, lists and gets prompts, and exposes instructions", async () => {
    const host = mcpHost(kernel);
    const resources = await host.resources("everything");
    expect(resources).toContainEqual(expect.objectContaining({ server: "everything", uri: "demo://resource/static/document/features.md", mimeType: "text/markdown" }));
    const [contents] = await host.readResource("everything", "demo://resource/static/document/features.md");
    expect(contents?.text).toContain("# Everything Server - Features");
    const prompts = await host.prompts();
    expect(prompts).toContainEqual(expect.objectContaining({ server: "everything", name: "args-prompt", arguments: [expect.objectContaining({ name: "city", required: true }), expect.objectContaining({ name: "state" })] }));
    expect(await host.getPrompt("everything", "args-prompt", { city: "Paris" })).toEqual({ messages: [{ role: "user", content: "What's weather in Paris?" }] });
    expect(host.instructions().map((item) => item.server)).toEqual(["everything", "sums"]);
    await expect(host.readResource("nope", "x://y")).rejects.toMatchObject({ code: "MCP_SERVER_UNKNOWN", message: 'no MCP server named "nope"; known servers: everything, files, memory, sums' });
  });

  it("uses server-filesystem on a real folder", async () => {
    const result = await kernel.execute({ name: "files__read_text_file", arguments: { path: join(dir, "hello.txt") } });
    expect(result.output).toBe("hello from disk\n");
    const outside = await kernel.execute({ name: "files__read_text_file", arguments: { path: "/etc/hostname" } });
    expect(outside.isError).toBe(true);
  });

  it("uses server-memory with the env its entry gives it", async () => {
    const created = await kernel.execute({
      name: "memory__create_entities",
      arguments: { entities: [{ name: "weft", entityType: "project", observations: ["speaks MCP"] }] },
    });
    expect(created.isError).toBeUndefined();
    const graph = await kernel.execute({ name: "memory__read_graph", arguments: {} });
    expect(JSON.parse(graph.output)).toMatchObject({ entities: [{ name: "weft", entityType: "project", observations: ["speaks MCP"] }] });
  });
});

describe("whether elicitation is advertised", () => {
  it("is, when the host gives the kernel a waitFor", async () => {
    const waitFor = async () => ({ action: "cancel" as const });
    const kernel = await createTestKernel([[mcp, { config: { mcpServers: { everything: stdio("everything") } } }]], { waitFor });
    try {
      expect(kernel.tools.get("everything__trigger-elicitation-request")).toBeDefined();
    } finally {
      await kernel.close();
    }
  }, 60_000);

  it("is not without one, so the server offers no elicitation tools", async () => {
    const kernel = await createTestKernel([[mcp, { config: { mcpServers: { everything: stdio("everything") } } }]]);
    try {
      expect(kernel.tools.get("everything__get-sum")).toBeDefined();
      expect(kernel.tools.get("everything__trigger-elicitation-request")).toBeUndefined();
    } finally {
      await kernel.close();
    }
  }, 60_000);
});

describe("server-everything over HTTP", () => {
  let streamable: Awaited<ReturnType<typeof startEverythingHttp>>;
  let legacy: Awaited<ReturnType<typeof startEverythingHttp>>;
  let kernel: Kernel;

  beforeAll(async () => {
    [streamable, legacy] = await Promise.all([startEverythingHttp("streamableHttp"), startEverythingHttp("sse")]);
    kernel = await createTestKernel([[mcp, { elicitation: true }]]);
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
    await Promise.all([streamable?.stop(), legacy?.stop()]);
  });

  async function sum(name: string): Promise<ToolResult> {
    return kernel.execute({ name: `${name}__get-sum`, arguments: { a: 20, b: 22 } });
  }

  it("speaks Streamable HTTP", async () => {
    const server = await mcpHost(kernel).addServer("remote", { type: "http", url: `http://127.0.0.1:${streamable.port}/mcp` });
    expect(server.status()).toMatchObject({ state: "connected" });
    expect(server.toolNames()).toContain("remote__get-sum");
    expect((await sum("remote")).output).toBe("The sum of 20 and 22 is 42.");
  });

  it("bridges an elicitation over Streamable HTTP", async () => {
    const call = { name: "remote__trigger-elicitation-request", arguments: {} };
    const first = await kernel.execute(call);
    expect(first.pending?.kind).toBe("elicitation");
    const answered = await kernel.execute(call, { pending: first.pending, answer: { action: "accept", content: { name: "Grace" } } });
    expect(answered.output).toContain("- Name: Grace");
  });

  it("gives a question to the call that asked it, with another call of the server in flight, and the server sees the decline", async () => {
    let progressed!: () => void;
    const started = new Promise<void>((resolve) => (progressed = resolve));
    const long = kernel.execute({ name: "remote__trigger-long-running-operation", arguments: { duration: 1.5, steps: 3 } }, { onProgress: () => progressed() });
    await started;
    const call = { name: "remote__trigger-elicitation-request", arguments: {} };
    const asked = await kernel.execute(call);
    expect(asked.pending).toMatchObject({ kind: "elicitation", data: { server: "remote", mode: "form" } });
    const declined = await kernel.execute(call, { pending: asked.pending, answer: { action: "decline" } });
    expect(declined.output).toContain("❌ User declined to provide the requested information.");
    expect(await long).toMatchObject({ output: "Long running operation completed. Duration: 1.5 seconds, Steps: 3." });
  });

  it("falls back to legacy SSE when the server does not speak Streamable HTTP", async () => {
    const server = await mcpHost(kernel).addServer("legacy", { url: `http://127.0.0.1:${legacy.port}/sse` });
    expect(server.status()).toMatchObject({ state: "connected" });
    expect((await sum("legacy")).output).toBe("The sum of 20 and 22 is 42.");
  });

  it("speaks SSE when told to", async () => {
    const server = await mcpHost(kernel).addServer("sse", { type: "sse", url: `http://127.0.0.1:${legacy.port}/sse` });
    expect(server.status()).toMatchObject({ state: "connected" });
    expect((await sum("sse")).output).toBe("The sum of 20 and 22 is 42.");
  });
});
