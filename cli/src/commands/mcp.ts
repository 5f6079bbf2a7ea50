import { loadProject } from "@weft/core";
import { defineCommand, UsageError } from "../command.js";
import { CONFIG_FLAG, JSON_FLAG } from "../common-flags.js";
import { mcpStatusTable } from "../mcp-status-table.js";
import { mcpProgress } from "../terminal/mcp-progress.js";
import { MCP_SERVE_FLAGS, runMcpServe } from "./mcp-serve.js";

export default defineCommand({
  usage: "mcp list | start <server> | stop <server> | serve [--http [--host <addr>] [--port <n>]] [options]",
  flags: { ...CONFIG_FLAG, ...JSON_FLAG, ...MCP_SERVE_FLAGS },
  examples: ["weft mcp list", "weft mcp start memory --json", "weft mcp serve", "weft mcp serve --http --port 3333"],
  // `serve` stops itself on SIGINT/SIGTERM and closes what it started; the others end at once.
  interrupt: "self",
  async run({ values, positionals }, io) {
    if (positionals[0] === "serve") return runMcpServe(values, io);
    const [action, name] = positionals;
    if (action !== "list" && action !== "start" && action !== "stop") throw new UsageError('say "list", "start <server>", "stop <server>" or "serve"');
    if (action !== "list" && !name) throw new UsageError(`name the server to ${action}`);
    const project = await loadProject({ cwd: io.cwd, config: values.config, feedback: mcpProgress(io) });
    try {
      const host = project.toolkit.mcp();
      if (host && name && action === "start") await host.start(name);
      if (host && name && action === "stop") await host.stop(name);
      const statuses = project.toolkit.mcpStatus();
      if (values.json) io.stdout.write(`${JSON.stringify(statuses, null, 2)}\n`);
      else io.stdout.write(`${mcpStatusTable(statuses)}\n`);
      return statuses.some((status) => status.state === "failed") ? 1 : 0;
    } finally {
      await project.toolkit.close();
    }
  },
});
