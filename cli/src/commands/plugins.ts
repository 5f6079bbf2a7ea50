import { fileURLToPath } from "node:url";
import path from "node:path";
import { loadProject } from "@weft/core";
import type { Command } from "../command.js";
import { parseFlags } from "../project-options.js";
import { formatTable } from "../table.js";

export const pluginsCommand: Command = {
  name: "plugins",
  summary: "list the plugins weft.config.yaml enables: name, version, where each was loaded from",
  usage: "weft plugins [--config <file>] [--json]",
  async run(argv, io) {
    const { values } = parseFlags(argv, { json: { type: "boolean" } });
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
};
