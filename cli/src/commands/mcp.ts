import { loadProject } from "@weft/core";
import { UsageError, type Command } from "../command.js";
import { mcpStatusTable } from "../mcp-status-table.js";
import { parseFlags } from "../project-options.js";
import { MCP_SERVE_USAGE, runMcpServe } from "./mcp-serve.js";

export const mcpCommand: Command = {
  name: "mcp",
  summary: "the project's MCP servers: list their state, start one (a disabled one too), stop one; serve the toolkit as one",
  usage: `weft mcp list | start <server> | stop <server> [--json] [--config <file>]\n       ${MCP_SERVE_USAGE}`,
  async run(argv, io) {
    if (argv[0] === "serve") return runMcpServe(argv.slice(1), io);
    const { values, positionals } = parseFlags(argv, { json: { type: "boolean" } });
    const [action, name] = positionals;
    if (!["list", "start", "stop"].includes(action ?? "")) throw new UsageError('say "list", "start <server>" or "stop <server>"');
    if (action !== "list" && !name) throw new UsageError(`name the server to ${action}`);
    const project = await loadProject({ cwd: io.cwd, config: values.config });
    try {
      const host = project.toolkit.mcp();
      if (host && action === "start") await host.start(name!);
      if (host && action === "stop") await host.stop(name!);
      const statuses = project.toolkit.mcpStatus();
      if (values.json) io.stdout.write(`${JSON.stringify(statuses, null, 2)}\n`);
      else io.stdout.write(`${mcpStatusTable(statuses)}\n`);
      return statuses.some((status) => status.state === "failed") ? 1 : 0;
    } finally {
      await project.toolkit.close();
    }
  },
};
