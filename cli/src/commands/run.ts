import { UsageError, type Command } from "../command.js";
import { AGENT_FLAGS, openAgentSession } from "../agent-session.js";
import { parseFlags } from "../project-options.js";
import { jsonRenderer, textRenderer } from "../terminal/run-renderer.js";

/** Exit codes: 0 done, 2 pending or incomplete (the turn needs more than this run could give), 1 error. */
const EXIT_CODES = { done: 0, pending: 2, incomplete: 2 } as const;

export const runCommand: Command = {
  name: "run",
  summary: "run one prompt through an agent on the project's model and tools, streaming the answer",
  usage: 'weft run "<prompt>" [--model provider/model] [--effort off|low|medium|high|max] [--max-iterations n] [--json] [--config <file>]',
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, { ...AGENT_FLAGS, json: { type: "boolean" } });
    const prompt = positionals.join(" ").trim();
    if (!prompt) throw new UsageError("give the prompt to run");
    const renderer = values.json ? jsonRenderer(io) : textRenderer(io);
    const session = await openAgentSession({
      cwd: io.cwd,
      flags: values,
      feedback: (event) => event.type === "mcp.status" && renderer.render(event),
    });
    const controller = new AbortController();
    const interrupt = () => controller.abort();
    process.once("SIGINT", interrupt);
    try {
      for await (const event of session.agent.stream(prompt, { signal: controller.signal })) {
        renderer.render(event);
        if (event.type === "response") {
          renderer.finish();
          if (event.response.status === "pending" && !values.json) {
            io.stderr.write(`weft: the agent is waiting for an answer (${event.response.suspension?.kind}): ${event.response.suspension?.message}\n`);
          }
          if (event.response.status === "incomplete" && !values.json) {
            io.stderr.write(`weft: the turn stopped early (${event.response.reason})\n`);
          }
          return EXIT_CODES[event.response.status];
        }
      }
      return 1;
    } finally {
      renderer.finish();
      process.off("SIGINT", interrupt);
      await session.close();
    }
  },
};
