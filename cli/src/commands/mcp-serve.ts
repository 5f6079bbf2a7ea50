import { once } from "node:events";
import { loadProject } from "@weft/core";
import { serveHttp, serveStdio } from "@weft/mcp-server";
import { UsageError } from "../command.js";
import type { CommandIO } from "../command.js";
import { parseFlags } from "../project-options.js";

export const MCP_SERVE_USAGE = "weft mcp serve [--http] [--host 127.0.0.1] [--port <n>] [--config <file>]";

/**
 * `weft mcp serve`: the project's toolkit as one MCP server, on stdio (what Claude Code and Cursor
 * launch) or, with --http, Streamable HTTP at http://127.0.0.1:<port>/mcp. Runs until stdin closes
 * (stdio) or SIGINT/SIGTERM, then closes the toolkit and everything it started.
 */
export async function runMcpServe(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseFlags(argv, { http: { type: "boolean" }, host: { type: "string" }, port: { type: "string" } });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be a port number, got "${values.port}"`);
  if (!values.http && (values.host !== undefined || values.port !== undefined)) throw new UsageError("--host and --port go with --http");
  const project = await loadProject({ cwd: io.cwd, config: values.config });
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    if (values.http) {
      const served = await serveHttp(project.toolkit, { host: values.host ?? "127.0.0.1", port });
      // Stdout is free in HTTP mode: the URL is what a user copies into a client's config.
      io.stdout.write(`weft MCP server at ${served.url}\n`);
      await once(stop.signal, "abort");
      await served.close();
    } else {
      const served = await serveStdio(project.toolkit);
      await Promise.race([once(process.stdin, "end"), once(stop.signal, "abort")]);
      await served.close();
    }
    return 0;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await project.toolkit.close();
  }
}
