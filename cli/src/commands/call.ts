import { loadProject } from "@weft/core/project";
import { errorMessage, isRecord } from "@weft/sdk";
import { defineCommand, UsageError } from "../command.js";
import { CONFIG_FLAG } from "../common-flags.js";
import { mcpProgress } from "../terminal/mcp-progress.js";

export default defineCommand({
  usage: "call <tool> ['<json arguments>'] [options]",
  flags: { ...CONFIG_FLAG, timeout: { type: "string", value: "<ms>", description: "the tool's time limit (default: the tool's own)" } },
  examples: [`weft call read '{"path": "README.md", "limit": 5}'`, "weft call memory__read_graph --timeout 5000"],
  interrupt: "abort",
  async run({ values, positionals }, io) {
    const [name, json = "{}"] = positionals;
    if (!name) throw new UsageError("name the tool to call");
    let args: unknown;
    try {
      args = JSON.parse(json);
    } catch (error) {
      throw new UsageError(`the arguments are not valid JSON: ${errorMessage(error)}`);
    }
    if (!isRecord(args)) throw new UsageError("the arguments must be a JSON object");
    const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
    if (timeoutMs !== undefined && !(timeoutMs > 0)) throw new UsageError("--timeout must be a positive number of milliseconds");
    const project = await loadProject({ cwd: io.cwd, config: values.config, feedback: mcpProgress(io) });
    try {
      const result = await project.kernel.execute({ name, arguments: args }, { signal: io.signal, timeoutMs });
      if (result.pending) {
        io.stdout.write(`pending ${result.pending.kind}: ${result.pending.message}\n`);
        return 2;
      }
      const stream = result.isError ? io.stderr : io.stdout;
      stream.write(result.output.endsWith("\n") ? result.output : `${result.output}\n`);
      return result.isError ? 1 : 0;
    } finally {
      await project.kernel.close();
    }
  },
});
