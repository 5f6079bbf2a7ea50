import { loadProject } from "@weft/core";
import { UsageError, type Command } from "../command.js";
import { parseFlags } from "../project-options.js";

export const callCommand: Command = {
  name: "call",
  summary: "run one tool through the execute path and print its result (exit 1 on an error result)",
  usage: "weft call <tool> '<json arguments>' [--config <file>] [--timeout <ms>]",
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, { timeout: { type: "string" } });
    const [name, json = "{}"] = positionals;
    if (!name) throw new UsageError("name the tool to call");
    let args: unknown;
    try {
      args = JSON.parse(json);
    } catch (error) {
      throw new UsageError(`the arguments are not valid JSON: ${(error as Error).message}`);
    }
    if (typeof args !== "object" || args === null || Array.isArray(args)) throw new UsageError("the arguments must be a JSON object");
    const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
    if (timeoutMs !== undefined && !(timeoutMs > 0)) throw new UsageError("--timeout must be a positive number of milliseconds");
    const project = await loadProject({ cwd: io.cwd, config: values.config });
    const controller = new AbortController();
    const interrupt = () => controller.abort();
    process.once("SIGINT", interrupt);
    try {
      const result = await project.kernel.execute({ name, arguments: args as Record<string, unknown> }, { signal: controller.signal, timeoutMs });
      if (result.pending) {
        io.stdout.write(`pending ${result.pending.kind}: ${result.pending.message}\n`);
        return 2;
      }
      const stream = result.isError ? io.stderr : io.stdout;
      stream.write(result.output.endsWith("\n") ? result.output : `${result.output}\n`);
      return result.isError ? 1 : 0;
    } finally {
      process.off("SIGINT", interrupt);
      await project.kernel.close();
    }
  },
};
