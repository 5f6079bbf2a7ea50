import { once } from "node:events";
import { loadProject } from "@weft/core/project";
import { serveHttp, serveStdio } from "@weft/mcp-server";
import { UsageError, type CommandIO, type FlagSpec } from "../command.js";

/** The flags of `weft mcp serve`. */
export const MCP_SERVE_FLAGS = {
  http: { type: "boolean", description: "serve: Streamable HTTP at http://<host>:<port>/mcp instead of stdio" },
  host: { type: "string", value: "<addr>", description: "serve --http: the address to listen on (default 127.0.0.1)" },
  port: { type: "string", value: "<n>", description: "serve --http: the port (default: any free one, printed)" },
} as const satisfies Record<string, FlagSpec>;

/**
 * `weft mcp serve`: the project's toolkit as one MCP server, on stdio (what Claude Code and Cursor
 * launch) or, with --http, Streamable HTTP at http://127.0.0.1:<port>/mcp. Runs until stdin closes
 * (stdio) or SIGINT/SIGTERM, then closes the toolkit and everything it started.
 */
export async function runMcpServe(values: { config?: string; http?: boolean; host?: string; port?: string }, io: CommandIO): Promise<number> {
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
