import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { sanitizeToolName } from "@weft/sdk";
import { UsageError, type Command } from "../command.js";
import { parseFlags } from "../project-options.js";
import { pluginFiles, pluginPackageName } from "../scaffold/plugin-template.js";

export const newPluginCommand: Command = {
  name: "new-plugin",
  summary: "scaffold a third-party pack package built against @weft/sdk, with a passing test",
  usage: "weft new-plugin <name> [--dir <folder>]",
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, { dir: { type: "string" } });
    const [name] = positionals;
    if (!name || !/^(@[a-z0-9-]+\/)?[a-z0-9][a-z0-9._-]*$/.test(name)) throw new UsageError("give the pack a name in lowercase letters, digits and hyphens, e.g. jira");
    const packageName = pluginPackageName(name);
    const folder = path.resolve(io.cwd, values.dir ?? packageName.replace(/^@[^/]+\//, ""));
    if (existsSync(folder)) {
      io.stderr.write(`weft: ${folder} already exists; choose another name or --dir\n`);
      return 1;
    }
    const short = packageName.replace(/^@[^/]+\//, "").replace(/^weft-plugin-/, "");
    const { version } = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    const files = pluginFiles({ packageName, toolName: sanitizeToolName(`${short}_hello`.replace(/-/g, "_")), weftRange: `^${version}` });
    for (const [relative, text] of Object.entries(files)) {
      const target = path.join(folder, relative);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, text);
    }
    io.stdout.write(`created ${packageName} in ${folder}\n${Object.keys(files).map((file) => `  ${file}`).join("\n")}\nnext: cd ${path.relative(io.cwd, folder) || "."} && npm install && npm test\n`);
    return 0;
  },
};
