import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { sanitizeToolName } from "@weft/sdk";
import { defineCommand, UsageError } from "../command.js";
import { cliVersion } from "../version.js";
import { pluginFiles, pluginPackageName } from "../scaffold/plugin-template.js";

export default defineCommand({
  usage: "new-plugin <name> [options]",
  flags: { dir: { type: "string", value: "<folder>", description: "where to create the package (default: ./weft-plugin-<name>)" } },
  examples: ["weft new-plugin jira", "weft new-plugin @acme/weft-plugin-jira --dir packages/jira"],
  async run({ values, positionals }, io) {
    const [name] = positionals;
    if (!name || !/^(@[a-z0-9-]+\/)?[a-z0-9][a-z0-9._-]*$/.test(name)) throw new UsageError("give the pack a name in lowercase letters, digits and hyphens, e.g. jira");
    const packageName = pluginPackageName(name);
    const folder = path.resolve(io.cwd, values.dir ?? packageName.replace(/^@[^/]+\//, ""));
    if (existsSync(folder)) {
      io.stderr.write(`weft: ${folder} already exists; choose another name or --dir\n`);
      return 1;
    }
    const short = packageName.replace(/^@[^/]+\//, "").replace(/^weft-plugin-/, "");
    const files = pluginFiles({ packageName, toolName: sanitizeToolName(`${short}_hello`.replace(/-/g, "_")), weftRange: `^${cliVersion()}` });
    for (const [relative, text] of Object.entries(files)) {
      const target = path.join(folder, relative);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, text);
    }
    io.stdout.write(`created ${packageName} in ${folder}\n${Object.keys(files).map((file) => `  ${file}`).join("\n")}\nnext: cd ${path.relative(io.cwd, folder) || "."} && npm install && npm test\n`);
    return 0;
  },
});
