#!/usr/bin/env node
// A small stdio MCP server whose misbehaviour is chosen by flags, for what the npm servers do not show:
//   --hang-handshake      read requests, never answer (connect timeout)
//   --no-tools            declare no tools capability (resources only)
//   --odd-names           publish tool names with characters providers refuse
//   --spawn-child=<file>  start a grandchild in our process group and write its pid to <file>
//   --startup-delay=<ms>  wait before serving (a slow starter)
//   --crash-on-start      write two stderr lines and exit 2 before the handshake
//   --bad-version         answer `initialize` with protocol version 1999-01-01
//   --refuse-initialize   answer `initialize` with a JSON-RPC error
//   --noisy-stdout        before each call's answer, write lines that are not JSON-RPC to stdout; echo answers in upper case
// Tools: echo, hang (never answers; `cancellations` counts the hangs the client cancelled), crash (writes to stderr, exits 3 mid-call), chatty (200 KB of stderr,
// then answers), huge (`bytes` bytes of "é"), measure (structuredContent { n } under an outputSchema that wants a number),
// notify (logs at debug and warning, lists changed, subscribed resources updated), research (task-only), ticker (progress every `intervalMs` for `ticks` times, then answers), add-tool (publishes
// `extra` and says its list changed), break-listing (tools/list fails from now on, and says it changed).
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const flags = new Map(process.argv.slice(2).map((arg) => {
  const [name, value = "true"] = arg.replace(/^--/, "").split("=");
  return [name, value];
}));

if (flags.has("crash-on-start")) {
  process.stderr.write("starting up\nfatal: no config\n");
  process.exit(2);
} else if (flags.has("bad-version") || flags.has("refuse-initialize")) {
  answerInitialize();
} else if (flags.has("hang-handshake")) {
  process.stdin.resume();
  setInterval(() => {}, 60_000);
} else {
  await serve();
}

/** Answers the first request (`initialize`) by hand, the way a broken or too new server would, then waits. */
function answerInitialize() {
  process.stderr.write("handshake answered by hand\n");
  let buffered = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    buffered += chunk;
    const end = buffered.indexOf("\n");
    if (end === -1) return;
    const request = JSON.parse(buffered.slice(0, end));
    buffered = "";
    const reply = flags.has("bad-version")
      ? { result: { protocolVersion: "1999-01-01", capabilities: {}, serverInfo: { name: "old", version: "0" } } }
      : { error: { code: -32602, message: "unsupported client capabilities" } };
    process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: request.id, ...reply })}\n`);
  });
  setInterval(() => {}, 60_000);
}

async function serve() {
  if (flags.has("startup-delay")) await new Promise((resolve) => setTimeout(resolve, Number(flags.get("startup-delay"))));
  if (flags.has("spawn-child")) {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 60000)"], { stdio: "ignore" });
    writeFileSync(flags.get("spawn-child"), String(child.pid));
  }
  const noTools = flags.has("no-tools");
  const server = new Server(
    { name: "weft-test-server", version: "1.0.0" },
    {
      capabilities: noTools
        ? { resources: {} }
        : { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, logging: {} },
      instructions: "Use echo to repeat text.",
    },
  );
  const object = (properties = {}) => ({ type: "object", properties });
  const tools = flags.has("odd-names")
    ? [
        { name: "get.weather/now", description: "Odd name", inputSchema: object() },
        { name: "get_weather_now", description: "Same after sanitizing", inputSchema: object() },
      ]
    : [
        { name: "echo", description: "Echo the text back", inputSchema: object({ text: { type: "string" } }) },
        { name: "hang", description: "Never answers", inputSchema: object() },
        { name: "crash", description: "Exits mid-call", inputSchema: object() },
        { name: "chatty", description: "Writes 200 KB to stderr, then answers", inputSchema: object() },
        { name: "ticker", description: "Reports progress, then answers", inputSchema: object({ ticks: { type: "number" }, intervalMs: { type: "number" } }) },
        { name: "cancellations", description: "How many hang calls were cancelled", inputSchema: object() },
        { name: "add-tool", description: "Publishes one more tool", inputSchema: object() },
        { name: "break-listing", description: "Makes tools/list fail", inputSchema: object() },
        { name: "huge", description: "Answers with `bytes` bytes of text", inputSchema: object({ bytes: { type: "number" } }) },
        {
          name: "measure",
          description: "Answers { n } as structured content only",
          inputSchema: object({ n: {} }),
          outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
        },
        { name: "notify", description: "Logs at debug and warning, says its lists changed, updates the subscribed resources", inputSchema: object() },
        { name: "research", description: "Runs only as an MCP task", inputSchema: object(), execution: { taskSupport: "required" } },
      ];
  let listingBroken = false;
  let cancellations = 0;
  if (!noTools) {
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      if (listingBroken) throw new Error("listing is broken");
      return { tools };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name, arguments: args = {} } = request.params;
      if (flags.has("noisy-stdout")) {
        process.stdout.write(`plain log line\n${JSON.stringify({ level: "info", msg: "noise" })}\n\n`);
        if (name === "echo") return { content: [{ type: "text", text: String(args.text ?? "").toUpperCase() }] };
      }
      switch (name) {
        case "echo":
          return { content: [{ type: "text", text: String(args.text ?? "") }] };
        case "hang":
          // notifications/cancelled aborts the handler's signal.
          // A cancel that arrived with the request has aborted the signal before this handler ran.
          if (extra.signal.aborted) cancellations++;
          else extra.signal.addEventListener("abort", () => cancellations++);
          return new Promise(() => {});
        case "cancellations":
          return { content: [{ type: "text", text: String(cancellations) }] };
        case "crash":
          process.stderr.write("about to crash\nfatal: simulated failure\n");
          setTimeout(() => process.exit(3), 10);
          return new Promise(() => {});
        case "chatty": {
          const line = `${"x".repeat(99)}\n`;
          process.stderr.write(line.repeat(2048));
          return { content: [{ type: "text", text: "done talking" }] };
        }
        case "ticker": {
          const ticks = Number(args.ticks ?? 3);
          const token = request.params._meta?.progressToken;
          for (let tick = 1; tick <= ticks; tick++) {
            await new Promise((resolve) => setTimeout(resolve, Number(args.intervalMs ?? 50)));
            if (token !== undefined) await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: tick, total: ticks } });
          }
          return { content: [{ type: "text", text: `ticked ${ticks} times` }] };
        }
        case "huge":
          return { content: [{ type: "text", text: "é".repeat(Math.floor(Number(args.bytes) / 2)) }] };
        case "notify":
          await server.sendLoggingMessage({ level: "debug", data: "a debug detail" });
          await server.sendLoggingMessage({ level: "warning", logger: "disk", data: { free: "2%" } });
          await server.sendPromptListChanged();
          await server.sendResourceListChanged();
          for (const uri of subscribed) await server.sendResourceUpdated({ uri });
          return { content: [{ type: "text", text: "notified" }] };
        case "measure":
          return { content: [], structuredContent: { n: args.n } };
        case "add-tool":
          tools.push({ name: "extra", description: "Added later", inputSchema: object() });
          await server.sendToolListChanged();
          return { content: [{ type: "text", text: "added extra" }] };
        case "break-listing":
          listingBroken = true;
          await server.sendToolListChanged();
          return { content: [{ type: "text", text: "listing broken" }] };
        default:
          return { content: [{ type: "text", text: `called ${name}` }] };
      }
    });
  }
  const subscribed = new Set();
  if (!noTools) {
    server.setRequestHandler(SubscribeRequestSchema, async (request) => {
      subscribed.add(request.params.uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
      subscribed.delete(request.params.uri);
      return {};
    });
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [] }));
    // `big`: one message of `bytes` bytes of "é".
    server.setRequestHandler(GetPromptRequestSchema, async (request) => ({
      messages: [{ role: "user", content: { type: "text", text: "é".repeat(Number(request.params.arguments?.bytes ?? 0) / 2) } }],
    }));
  }
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [{ uri: "test://note", name: "note", mimeType: "text/plain" }] }));
  // `test://big?bytes=N`: N bytes of "é".
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const big = /^test:\/\/big\?bytes=(\d+)$/.exec(request.params.uri);
    return { contents: [{ uri: request.params.uri, mimeType: "text/plain", text: big ? "é".repeat(Number(big[1]) / 2) : "a note" }] };
  });
  await server.connect(new StdioServerTransport());
}
