import { configSchema } from "@weft/core/project";
import { defineCommand, UsageError } from "../command.js";
import { CONFIG_FLAG } from "../common-flags.js";

export default defineCommand({
  usage: "config schema [options]",
  flags: { ...CONFIG_FLAG },
  examples: ["weft config schema > weft.config.schema.json"],
  async run({ values, positionals }, io) {
    if (positionals[0] !== "schema" || positionals.length > 1) throw new UsageError('say "schema"');
    io.stdout.write(`${JSON.stringify(await configSchema({ cwd: io.cwd, config: values.config }), null, 2)}\n`);
    return 0;
  },
});
