import { loadProject } from "@weft/core/project";
import { defineCommand } from "../command.js";
import { CONFIG_FLAG, JSON_FLAG } from "../common-flags.js";
import { mcpProgress } from "../terminal/mcp-progress.js";
import { formatTable } from "../table.js";

const DESCRIPTION_WIDTH = 72;

export default defineCommand({
  usage: "tools [options]",
  flags: { ...CONFIG_FLAG, ...JSON_FLAG },
  examples: ["weft tools", "weft tools --json | jq '.[].name'"],
  async run({ values }, io) {
    const project = await loadProject({ cwd: io.cwd, config: values.config, feedback: mcpProgress(io) });
    try {
      const tools = project.kernel.tools.list().map((tool) => ({
        name: tool.name,
        source: `${tool.source.kind}:${tool.source.id}`,
        // What the tool costs in every request: its schema as the provider receives it.
        schemaBytes: Buffer.byteLength(JSON.stringify(tool.inputSchema)),
        description: tool.description,
        inputSchema: tool.inputSchema,
      }));
      if (values.json) {
        io.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
        return 0;
      }
      const rows = tools.map((tool) => [tool.name, tool.source, String(tool.schemaBytes), firstLine(tool.description)]);
      io.stdout.write(`${formatTable([["TOOL", "SOURCE", "SCHEMA", "DESCRIPTION"], ...rows])}\n`);
      io.stdout.write(`${tools.length} tools\n`);
      return 0;
    } finally {
      await project.kernel.close();
    }
  },
});

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > DESCRIPTION_WIDTH ? `${line.slice(0, DESCRIPTION_WIDTH - 1)}…` : line;
}
