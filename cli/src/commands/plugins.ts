import { fileURLToPath } from "node:url";
import path from "node:path";
import { loadProject, settingOrigins, type SettingOrigin } from "@weft/core/project";
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
      const origins = await settingOrigins(project);
      const plugins = project.kernel.plugins().map((plugin) => ({
        name: plugin.name,
        version: plugin.version,
        from: plugin.from ? path.relative(project.dir, fileURLToPath(plugin.from)) : "",
        settings: origins.filter((origin) => origin.plugin === plugin.name).map(({ plugin: _, ...setting }) => setting),
      }));
      if (values.json) io.stdout.write(`${JSON.stringify(plugins, null, 2)}\n`);
      else {
        io.stdout.write(`${project.file}\n`);
        io.stdout.write(`${formatTable([["PLUGIN", "VERSION", "FROM"], ...plugins.map((p) => [p.name, p.version, p.from])])}\n`);
        if (origins.length > 0) {
          io.stdout.write(`\n${formatTable([["PLUGIN", "SETTING", "VALUE", "FROM"], ...origins.map((o) => [o.plugin, o.setting, o.value === undefined ? "" : JSON.stringify(o.value), originText(o, project.dir)])])}\n`);
        }
      }
      return 0;
    } finally {
      await project.kernel.close();
    }
  },
});

/** `weft.config.yaml:12`, `env ANTHROPIC_API_KEY`, `default`, or `unset (ANTHROPIC_API_KEY)`. */
function originText(origin: SettingOrigin, dir: string): string {
  if (origin.from === "config") return `${path.relative(dir, origin.file ?? "")}:${origin.line ?? "?"}`;
  if (origin.from === "env") return `env ${origin.variable}`;
  return origin.variable ? `${origin.from} (${origin.variable})` : origin.from;
}
