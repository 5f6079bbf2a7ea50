import { defineCommand, UsageError } from "../command.js";
import { AGENT_FLAGS, openAgentSession } from "../agent-session.js";
import { mcpProgress } from "../terminal/mcp-progress.js";
import { jsonRenderer, textRenderer } from "../terminal/run-renderer.js";

/** Exit codes: 0 done, 2 pending or incomplete (the turn needs more than this run could give), 1 error. */
const EXIT_CODES = { done: 0, pending: 2, incomplete: 2, limit: 2 } as const;

export default defineCommand({
  usage: 'run "<prompt>" [options]',
  flags: { ...AGENT_FLAGS, json: { type: "boolean", description: "every event as one JSON line on stdout; errors as {\"code\", \"message\"}" } },
  examples: ['weft run "summarise CHANGELOG.md"', 'weft run --model ollama/qwen3 --effort low "list the TODOs in src/"', 'weft run --json "fix the failing test" > events.jsonl'],
  interrupt: "abort",
  async run({ values, positionals }, io) {
    const prompt = positionals.join(" ").trim();
    if (!prompt) throw new UsageError("give the prompt to run");
    const renderer = values.json ? jsonRenderer(io) : textRenderer(io);
    const session = await openAgentSession({
      cwd: io.cwd,
      flags: values,
      feedback: mcpProgress(io),
    });
    try {
      for await (const event of session.agent.stream(prompt, { signal: io.signal })) {
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
      await session.close();
    }
  },
});
