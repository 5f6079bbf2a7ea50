import path from "node:path";
import { findConfigFile, loadProject, PROJECT_MCP_JSON } from "@weft/core/project";
import { defineCommand, UsageError, type CommandIO } from "../command.js";
import { addMcpServer, serverSettings, type McpServerEntry } from "../mcp-json-file.js";
import { CONFIG_FLAG, JSON_FLAG } from "../common-flags.js";
import { mcpStatusTable } from "../mcp-status-table.js";
import { mcpProgress } from "../terminal/mcp-progress.js";
import { runMcpLogin, runMcpLogout } from "./mcp-login.js";
import { MCP_SERVE_FLAGS, runMcpServe } from "./mcp-serve.js";

export default defineCommand({
  usage: "mcp list | start <server> | stop <server> | login <server> | logout <server> | add <name> (--url <url> | -- <command> [args...]) | serve [--http [--host <addr>] [--port <n>]] [options]",
  flags: {
    ...CONFIG_FLAG,
    ...JSON_FLAG,
    url: { type: "string", value: "<url>", description: "add: a streamable-HTTP server at this URL instead of a command" },
    force: { type: "boolean", description: "add: replace a server of the same name" },
    env: { type: "string", multiple: true, value: "<KEY=VALUE>", description: "add: an environment variable of a command server (repeatable)" },
    header: { type: "string", multiple: true, value: "<'Name: value'>", description: "add: an HTTP header of a URL server (repeatable)" },
    redirect: { type: "string", value: "<url>", description: "login: finish a sign-in started elsewhere with the URL the browser was sent back to" },
    ...MCP_SERVE_FLAGS,
  },
  examples: [
    "weft mcp list",
    "weft mcp start memory --json",
    "weft mcp add memory -- npx -y @modelcontextprotocol/server-memory",
    "weft mcp add docs --url https://example.com/mcp",
    "weft mcp login docs",
    "weft mcp login docs --redirect 'http://127.0.0.1:33418/callback?code=...&state=...'",
    "weft mcp add github --url https://api.example.com/mcp --header 'Authorization: Bearer ${GITHUB_TOKEN}'",
    "weft mcp add memory --env MEMORY_FILE_PATH=./memory.json -- npx -y @modelcontextprotocol/server-memory",
    "weft mcp serve",
    "weft mcp serve --http --port 3333",
  ],
  // `serve` stops itself on SIGINT/SIGTERM and closes what it started; the others end at once.
  interrupt: "self",
  async run({ values, positionals }, io) {
    if (positionals[0] === "serve") return runMcpServe(values, io);
    const [action, name, ...command] = positionals;
    if (action === "add") return add(name, command, values, io);
    if (action === "login") return runMcpLogin(name, values, io);
    if (action === "logout") return runMcpLogout(name, values, io);
    if (action !== "list" && action !== "start" && action !== "stop") throw new UsageError('say "list", "start <server>", "stop <server>", "login <server>", "logout <server>", "add <name> -- <command>" or "serve"');
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

/** `mcp add`: writes the server into the project's .mcp.json (Claude Code's file), which weft reads when `mcp:` is absent. */
async function add(
  name: string | undefined,
  command: string[],
  values: { config?: string; url?: string; force?: boolean; env?: string[]; header?: string[] },
  io: CommandIO,
): Promise<number> {
  if (!name) throw new UsageError("name the server to add");
  const [program, ...args] = command;
  if (values.url !== undefined && program !== undefined) throw new UsageError("give either --url or a command after --, not both");
  if (values.url === undefined && program === undefined) throw new UsageError("give the server's command after --, or --url <url>");
  // The project's root is its weft.config.yaml's folder; with none yet, the working directory.
  let dir = io.cwd;
  try {
    dir = path.dirname(findConfigFile(io.cwd, values.config));
  } catch (error) {
    if (values.config) throw error;
  }
  const file = path.join(dir, PROJECT_MCP_JSON);
  if (values.url !== undefined && values.env) throw new UsageError("--env is for a command server; a URL server takes --header");
  if (values.url === undefined && values.header) throw new UsageError("--header is for a URL server (--url); a command server takes --env");
  const entry: McpServerEntry =
    values.url !== undefined
      ? { type: "http", url: values.url, ...(values.header ? { headers: serverSettings(values.header, ":", "--header", "'Name: value'") } : {}) }
      : { command: program ?? "", args, ...(values.env ? { env: serverSettings(values.env, "=", "--env", "KEY=VALUE") } : {}) };
  await addMcpServer(file, name, entry, values.force === true);
  io.stdout.write(`added ${name} to ${file}\n`);
  return 0;
}
