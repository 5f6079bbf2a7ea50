import path from "node:path";
import { addTrust, findConfigFile, readProjectConfig, readTrust, revokeTrust, trustRequest } from "@weft/core/project";
import { UsageError, defineCommand } from "../command.js";
import { CONFIG_FLAG } from "../common-flags.js";

export default defineCommand({
  usage: "trust [<folder>] [--config <file>] | trust --list | trust --revoke [<folder>]",
  flags: {
    ...CONFIG_FLAG,
    list: { type: "boolean", description: "list the trusted configs" },
    revoke: { type: "boolean", description: "take back the trust in the folder's config" },
  },
  examples: ["weft trust", "weft trust ../cloned-repo", "weft trust --list", "weft trust --revoke"],
  async run({ values, positionals }, io) {
    if (values.list) {
      const entries = await readTrust(io.env);
      io.stdout.write(entries.length === 0 ? "no trusted configs\n" : entries.map((entry) => `${entry.path}  (trusted ${entry.trustedAt})\n`).join(""));
      return 0;
    }
    if (positionals.length > 1) throw new UsageError("name one folder");
    const file = findConfigFile(path.resolve(io.cwd, positionals[0] ?? "."), values.config);
    const request = await trustRequest(file, await readProjectConfig(file));
    if (values.revoke) {
      io.stdout.write((await revokeTrust(request.file, io.env)) ? `revoked trust in ${request.file}\n` : `${request.file} was not trusted\n`);
      return 0;
    }
    await addTrust(request.file, request.hash, io.env);
    const what = request.reasons.length === 0 ? " (it runs no code of its own)" : `:\n${request.reasons.map((reason) => `  - ${reason}`).join("\n")}`;
    io.stdout.write(`trusted ${request.file} as it is now${what}\n`);
    return 0;
  },
});
