/**
 * The client under test for the official MCP conformance suite (`conformance client --command ...`): it
 * connects through this plugin to the scenario's server (the URL is the last argument), runs the tools the
 * scenario expects through the kernel's execute path, and answers elicitations the way a host's `waitFor`
 * would: accepting with no fields, so the client fills in the schema's defaults.
 */
import { createTestKernel } from "@weft/testing";
import type { ExecuteOptions, ToolCallRequest, ToolResult } from "@weft/sdk";
import mcp from "../index.js";

const url = process.argv.at(-1)!;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const kernel = await createTestKernel([[mcp, { elicitation: true }]]);

/** The loop's part: run, hand a pending request to the "host", re-run with its answer. */
async function run(call: ToolCallRequest): Promise<ToolResult> {
  let options: ExecuteOptions = {};
  for (;;) {
    const result = await kernel.execute(call, options);
    if (!result.pending) return result;
    console.log(`pending ${result.pending.kind}: ${result.pending.message}`);
    options = { answer: { action: "accept", content: {} }, pending: result.pending };
  }
}

const tools: Record<string, [string, Record<string, unknown>][]> = {
  tools_call: [["add_numbers", { a: 5, b: 3 }]],
  "elicitation-sep1034-client-defaults": [["test_client_elicitation_defaults", {}]],
  "sse-retry": [["test_reconnection", {}]],
};

let failed = false;
try {
  const server = await kernel.scope("conformance").need("mcp").addServer("conformance", { type: "http", url, timeout: 20_000 });
  const status = server.status();
  console.log(`server ${status.state}: ${server.toolNames().join(", ") || "(no tools)"}`);
  if (status.state !== "connected") throw new Error(status.error);
  for (const [tool, args] of tools[scenario] ?? []) {
    const result = await run({ name: `conformance__${tool}`, arguments: args });
    console.log(`${tool}: ${result.isError ? "error: " : ""}${result.output}`);
    failed ||= result.isError === true;
  }
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await kernel.close();
}
process.exit(failed ? 1 : 0);
