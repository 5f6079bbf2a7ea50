import { fileURLToPath } from "node:url";
import path from "node:path";
import { loadProject } from "@weft/core";
import { defineCommand } from "../command.js";
import { CONFIG_FLAG, JSON_FLAG } from "../common-flags.js";
import { formatTable } from "../table.js";

export default defineCommand({
  usage: "plugins [options]",
  flags: { ...CONFIG_FLAG, ...JSON_FLAG },
  examples: ["weft plugins", "weft plugins --json --config ../app/weft.config.yaml"],
  async run({ values }, io) {
    const project = await loadProject({ cwd: io.cwd, config: values.config });
    try {
      const plugins = project.kernel.plugins().map((plugin) => ({
        name: plugin.name,
        version: plugin.version,
        from: plugin.from ? path.relative(project.dir, fileURLToPath(plugin.from)) : "",
      }));
      if (values.json) io.stdout.write(`${JSON.stringify(plugins, null, 2)}\n`);
      else {
        io.stdout.write(`${project.file}\n`);
        io.stdout.write(`${formatTable([["PLUGIN", "VERSION", "FROM"], ...plugins.map((p) => [p.name, p.version, p.from])])}\n`);
      }
      return 0;
    } finally {
      await project.kernel.close();
    }
  },
});
