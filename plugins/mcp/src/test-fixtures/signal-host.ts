/**
 * A host that starts one stdio server (which spawns a grandchild) and then waits to be killed, for the test
 * that a host dying of a signal, without closing its kernel, leaves no server process behind.
 */
import { createTestKernel } from "@weft/testing";
import mcp from "../index.js";

const [serverScript, pidFile] = process.argv.slice(2);
await createTestKernel([[mcp, { config: { mcpServers: { s: { command: process.execPath, args: [serverScript, `--spawn-child=${pidFile}`] } } } }]]);
process.stdout.write("ready\n");
setInterval(() => {}, 60_000);
