import { EFFORTS, errorMessage, isAbortError, isEffort } from "@weft/sdk";
import { defineCommand, type CommandIO } from "../command.js";
import { AGENT_FLAGS, openAgentSession, type AgentSession } from "../agent-session.js";
import { mcpProgress } from "../terminal/mcp-progress.js";
import { isTerminal } from "../terminal/terminal-capabilities.js";
import { terminalWaitFor } from "../terminal/ask-user.js";
import { LineReader } from "../terminal/line-reader.js";
import { textRenderer } from "../terminal/run-renderer.js";
import { mcpStatusTable } from "../mcp-status-table.js";

const HELP = "/model <provider/model>  /effort <off|low|medium|high|max>  /tools  /mcp [start|stop <server>]  /reset  /exit";

export default defineCommand({
  usage: "chat [options]",
  flags: AGENT_FLAGS,
  examples: ["weft chat", "weft chat --model openrouter/openai/gpt-5 --effort high"],
  // Ctrl-C stops the turn in flight, not the program.
  interrupt: "self",
  async run({ values }, io) {
    const lines = new LineReader(process.stdin, io.stderr, isTerminal(io.stderr) && process.stdin.isTTY === true);
    const renderer = textRenderer(io);
    // The turn's events reach the renderer through the stream's consumer, a step behind the loop that
    // asks: one turn of the event loop lets it print them before the question goes up.
    const settle = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      renderer.finish();
    };
    const session = await openAgentSession({
      cwd: io.cwd,
      flags: values,
      waitFor: terminalWaitFor(lines, (text) => void io.stderr.write(text), settle),
      feedback: mcpProgress(io),
    });
    let running: AbortController | undefined;
    // Ctrl-C stops the turn in flight; at the prompt it only reminds how to leave.
    const interrupt = () => (running ? running.abort() : io.stderr.write(`\n(${HELP})\n`));
    lines.onInterrupt(interrupt);
    process.on("SIGINT", interrupt);
    io.stderr.write(`weft chat: ${session.agent.model.provider}/${session.agent.model.model}, ${session.project.toolkit.tools.length} tools. ${HELP}\n`);
    try {
      for (;;) {
        const line = (await lines.ask("you> "))?.trim();
        if (line === undefined || line === "/exit") return 0;
        if (line === "") continue;
        if (line.startsWith("/")) {
          await runSlashCommand(line, session, io);
          continue;
        }
        running = new AbortController();
        try {
          for await (const event of session.agent.stream(line, { signal: running.signal })) {
            renderer.render(event);
            if (event.type === "response" && event.response.status !== "done") {
              io.stderr.write(`(turn ${event.response.status}${event.response.reason ? `: ${event.response.reason}` : ""})\n`);
            }
          }
        } catch (error) {
          io.stderr.write(isAbortError(error) ? "(turn stopped)\n" : `weft: ${errorMessage(error)}\n`);
        } finally {
          renderer.finish();
          running = undefined;
        }
      }
    } finally {
      process.off("SIGINT", interrupt);
      lines.close();
      await session.close();
    }
  },
});

async function runSlashCommand(line: string, session: AgentSession, io: CommandIO): Promise<void> {
  const [command, ...rest] = line.split(/\s+/);
  const argument = rest.join(" ");
  const say = (text: string) => void io.stderr.write(`${text}\n`);
  try {
    switch (command) {
      case "/model":
        // `provider/model` of the same provider, or the bare model id.
        session.agent.changeModel(argument.startsWith(`${session.agent.model.provider}/`) ? argument.slice(argument.indexOf("/") + 1) : argument);
        return say(`model: ${session.agent.model.provider}/${session.agent.model.model}`);
      case "/effort":
        if (!isEffort(argument)) return say(`effort must be one of ${EFFORTS.join(", ")}`);
        session.agent.changeEffort(argument);
        return say(`effort: ${argument}`);
      case "/tools":
        return say(session.project.toolkit.tools.map((tool) => `${tool.name}  (${tool.source.kind}:${tool.source.id})`).join("\n") || "(no tools)");
      case "/mcp": {
        const [action, server] = argument.split(/\s+/);
        const host = session.project.toolkit.mcp();
        if (host && action === "start" && server) await host.start(server);
        if (host && action === "stop" && server) await host.stop(server);
        return say(mcpStatusTable(session.project.toolkit.mcpStatus()));
      }
      case "/reset":
        await session.agent.resetSession();
        return say("(history cleared)");
      default:
        return say(`unknown command ${command}; ${HELP}`);
    }
  } catch (error) {
    say(errorMessage(error));
  }
}
