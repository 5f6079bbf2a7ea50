import { loadProject } from "@weft/core/project";
import { isRecord, type McpServerStatus, type PendingAnswer, type Suspension, type WaitFor } from "@weft/sdk";
import { UsageError, type CommandIO } from "../command.js";
import { mcpProgress } from "../terminal/mcp-progress.js";

/**
 * `weft mcp login <server>`: forgets what weft stored for the server's OAuth, then signs in again. The
 * sign-in URL is printed; the browser's redirect comes back to the plugin's loopback listener, which ends
 * the wait. Tokens go to the token store (a 0600 file under the user's config dir). With `--redirect
 * <url>` it finishes a sign-in started before (by another process, whose listener the browser could not
 * reach) with the URL the browser was sent back to.
 */
export async function runMcpLogin(name: string | undefined, values: { config?: string; redirect?: string }, io: CommandIO): Promise<number> {
  if (!name) throw new UsageError("name the server to sign in to");
  const gate = { ready: false };
  const project = await loadProject({ cwd: io.cwd, config: values.config, waitFor: signInPrompt(name, gate, io), feedback: mcpProgress(io) });
  try {
    const host = project.toolkit.mcp();
    if (!host) throw new UsageError("the project has no MCP servers");
    let status: McpServerStatus;
    if (values.redirect !== undefined) {
      status = await host.finishSignIn(name, values.redirect);
    } else {
      await host.signOut(name);
      gate.ready = true;
      status = await host.start(name);
    }
    if (status.state !== "connected") {
      io.stderr.write(`weft: not signed in to ${name}: ${status.error ?? status.state}\n`);
      return 1;
    }
    io.stdout.write(`signed in to ${name} (${status.tools} tools)\n`);
    return 0;
  } finally {
    await project.toolkit.close();
  }
}

/** `weft mcp logout <server>`: stops the server and forgets its stored tokens and client registration. */
export async function runMcpLogout(name: string | undefined, values: { config?: string }, io: CommandIO): Promise<number> {
  if (!name) throw new UsageError("name the server to sign out of");
  const project = await loadProject({ cwd: io.cwd, config: values.config, waitFor: declineAll, feedback: mcpProgress(io) });
  try {
    const host = project.toolkit.mcp();
    if (!host) throw new UsageError("the project has no MCP servers");
    io.stdout.write((await host.signOut(name)) ? `signed out of ${name}\n` : `nothing was stored for ${name}\n`);
    return 0;
  } finally {
    await project.toolkit.close();
  }
}

/** While the project loads, no server may ask: only the one being signed in to, once the old sign-in is gone. */
function signInPrompt(name: string, gate: { ready: boolean }, io: CommandIO): WaitFor {
  return (suspension: Suspension, signal: AbortSignal): Promise<PendingAnswer> => {
    const server = isRecord(suspension.data) ? suspension.data.server : undefined;
    if (!gate.ready || suspension.kind !== "authorization" || server !== name) return declineAll(suspension, signal);
    io.stderr.write(`sign in to MCP server "${name}": open this link in a browser\n${suspension.url}\n`);
    // The plugin ends the wait when the browser comes back (it aborts `signal`); Ctrl-C ends the command.
    return new Promise<PendingAnswer>((resolve) => signal.addEventListener("abort", () => resolve({ action: "cancel" }), { once: true }));
  };
}

const declineAll: WaitFor = async () => ({ action: "decline" });
