// Traces a weft agent with OpenTelemetry: `node src/app.mjs anthropic/claude-sonnet-4-5` prints the
// spans of one tool-using turn with the console exporter: the GenAI ones (invoke_agent → chat,
// execute_tool, chat) and the MCP client ones of the stdio server the tool comes from (initialize,
// tools/list, and tools/call under execute_tool, whose trace context the server receives in `_meta`).
import { fileURLToPath } from "node:url";
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createAgent, createKernel } from "@weft/core";
import { otelPlugin } from "@weft/otel";
import mcpPlugin from "@weft/plugin-mcp";

const clockServer = { command: process.execPath, args: [fileURLToPath(new URL("./clock-server.mjs", import.meta.url))] };

/** One traced turn; `model` is a ChatModel or a `provider/model` reference. */
export async function tracedTurn({ model, prompt = "What time is it in Oslo?", exporter = new ConsoleSpanExporter() }) {
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const kernel = createKernel();
  await kernel.use(otelPlugin({ tracer: provider.getTracer("weft-example"), agentName: "clock-agent" }));
  if (typeof model === "string") await kernel.use((await import("@weft/plugin-anthropic")).default);
  await kernel.use(mcpPlugin, { config: { mcpServers: { clock: clockServer } } });
  await kernel.ready();
  try {
    const agent = createAgent({ kernel, model: typeof model === "string" ? await kernel.createModel(model) : model });
    return (await agent.process(prompt)).content;
  } finally {
    await kernel.close();
    // Flush, not shutdown: shutting an exporter down also drops what it holds (the in-memory one of the test).
    await provider.forceFlush();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await tracedTurn({ model: process.argv[2] ?? "anthropic/claude-sonnet-4-5" }));
}
