// Traces a weft agent with OpenTelemetry: `node src/app.mjs anthropic/claude-sonnet-4-5` prints the
// GenAI spans of one tool-using turn (invoke_agent → chat, execute_tool, chat) with the console exporter.
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createAgent, createKernel } from "@weft/core";
import { otelPlugin } from "@weft/otel";
import { defineTool } from "@weft/sdk";
import { Type } from "typebox";

const clock = defineTool({
  name: "clock",
  description: "The current time in a time zone",
  input: Type.Object({ zone: Type.String({ description: "IANA zone, e.g. Europe/Oslo" }) }),
  execute: ({ zone }) => ({ output: new Date().toLocaleTimeString("en-GB", { timeZone: zone }) }),
});

/** One traced turn; `model` is a ChatModel or a `provider/model` reference. */
export async function tracedTurn({ model, prompt = "What time is it in Oslo?", exporter = new ConsoleSpanExporter() }) {
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const kernel = createKernel();
  await kernel.use(otelPlugin({ tracer: provider.getTracer("weft-example"), agentName: "clock-agent" }));
  if (typeof model === "string") await kernel.use((await import("@weft/plugin-anthropic")).default);
  kernel.hooks.tools.tap((registrar) => void registrar.add(clock));
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
