/**
 * The client under test for the official MCP conformance suite (`conformance client --command ...`): it
 * connects through this plugin to the scenario's server (the URL is the last argument), runs the tools the
 * scenario expects through the kernel's execute path, and answers elicitations the way a host's `waitFor`
 * would: accepting with no fields, so the client fills in the schema's defaults. Auth scenarios get an
 * `auth:` entry built from the suite's context (client credentials, a pre-registered client) and a
 * `waitFor` that plays the user's browser: it opens the sign-in page, whose redirect reaches the plugin's
 * loopback listener. Only weft's public API is used.
 */
import { createTestKernel } from "@weft/testing";
import type { ExecuteOptions, McpServerAuth, ToolCallRequest, ToolResult, WaitFor } from "@weft/sdk";
import mcp from "../index.js";

const url = process.argv.at(-1) ?? "";
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
/** What the suite hands an auth scenario's client (`MCP_CONFORMANCE_CONTEXT`). */
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Record<string, string | undefined>;

/** The auth entry a user would write for the scenario's server. */
function authFor(name: string): McpServerAuth | undefined {
  if (!name.startsWith("auth/")) return undefined;
  const { client_id: clientId, client_secret: clientSecret, private_key_pem: privateKey, signing_algorithm: signingAlgorithm } = context;
  if (name.startsWith("auth/client-credentials")) return { grant: "client_credentials", clientId, ...(clientSecret ? { clientSecret } : { privateKey, signingAlgorithm }) };
  if (clientId) return { clientId, clientSecret };
  // A client ID metadata document where the server supports them, dynamic registration where not.
  return { clientId: "https://conformance-test.local/client-metadata.json" };
}

/** The user's browser: opens the sign-in page and follows its redirect back to weft. */
const browser: WaitFor = async (suspension) => {
  if (suspension.kind !== "authorization" || !suspension.url) return { action: "decline" };
  console.log(`sign-in: ${suspension.url}`);
  await fetch(suspension.url, { redirect: "follow" });
  return { action: "accept" };
};

const kernel = await createTestKernel([[mcp, { elicitation: true }]], { waitFor: browser });

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
/** The auth scenarios' servers check a call of `test-tool` where they publish it. */
const AUTH_TOOL = "test-tool";

let failed = false;
try {
  const auth = authFor(scenario);
  const server = await kernel.scope("conformance").need("mcp").addServer("conformance", { type: "http", url, timeout: 20_000, ...(auth ? { auth } : {}) });
  const status = server.status();
  console.log(`server ${status.state}: ${server.toolNames().join(", ") || "(no tools)"}`);
  if (status.state !== "connected") throw new Error(status.error);
  const authCalls: [string, Record<string, unknown>][] = auth && server.toolNames().includes(`conformance__${AUTH_TOOL}`) ? [[AUTH_TOOL, {}]] : [];
  for (const [tool, args] of tools[scenario] ?? authCalls) {
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
