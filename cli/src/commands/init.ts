import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { configSchema } from "@weft/core/project";
import { defineCommand, type CommandIO } from "../command.js";
import { LineReader } from "../terminal/line-reader.js";
import { isTerminal } from "../terminal/terminal-capabilities.js";

const DEFAULT_MODEL = "anthropic/claude-sonnet-4-5";
/** Written beside the config; its first line points editors (yaml-language-server) at it. */
export const SCHEMA_FILE = "weft.config.schema.json";

/** The starter config; comments say what each key does so the file teaches itself. */
export function starterConfig(model: string, builtins: boolean): string {
  return `# yaml-language-server: $schema=./${SCHEMA_FILE}
# (completion in editors; after installing a plugin: weft config schema > ${SCHEMA_FILE})
# weft project file; \`weft tools\` shows what the model gets, \`weft run "<prompt>"\` runs an agent.
# provider/model; the provider's plugin loads by itself. Credentials come from the environment:
# ANTHROPIC_API_KEY, OPENROUTER_API_KEY, OLLAMA_HOST.
model: ${model}
effort: medium
instructions: You are a careful assistant. Use the tools when they help; say what you did.

# The built-in tools: bash, read, write, edit, grep, glob, webfetch, apply_patch, question, todowrite.
# They run with your authority in this folder; { tools: { bash: false } } drops single ones.
builtins: ${builtins}

plugins: []
#  - files: { root: ./workspace }     # a pack with options
#  - ./tools/my-pack.js               # your own pack, a path relative to this file

# mcp: ./mcp.json                     # MCP servers (Claude Desktop / Cursor format)
# skills: [./skills]                  # folders of SKILL.md skills
# disableTools: [bash]
`;
}

export default defineCommand({
  usage: "init [options]",
  flags: {
    model: { type: "string", value: "provider/model", description: `the model to put in the file (default: ${DEFAULT_MODEL})` },
    force: { type: "boolean", description: "replace an existing weft.config.yaml" },
  },
  examples: ["weft init", "weft init --model openrouter/anthropic/claude-sonnet-4.5 --force"],
  async run({ values }, io) {
    const file = path.join(io.cwd, "weft.config.yaml");
    if (existsSync(file) && !values.force) {
      io.stderr.write(`weft: ${file} already exists; use --force to replace it\n`);
      return 1;
    }
    const { model, builtins } = process.stdin.isTTY && isTerminal(io.stderr) ? await ask(io, values.model) : { model: values.model ?? DEFAULT_MODEL, builtins: true };
    await writeFile(file, starterConfig(model, builtins));
    const schema = path.join(io.cwd, SCHEMA_FILE);
    await writeFile(schema, `${JSON.stringify(await configSchema({ cwd: io.cwd, config: file }), null, 2)}\n`);
    io.stdout.write(`wrote ${file} and ${schema}\nnext: weft tools, then weft run "<prompt>"\n`);
    return 0;
  },
});

async function ask(io: CommandIO, model: string | undefined): Promise<{ model: string; builtins: boolean }> {
  const lines = new LineReader(process.stdin, io.stderr, true);
  try {
    const chosen = model ?? ((await lines.ask(`model [${DEFAULT_MODEL}]: `))?.trim() || DEFAULT_MODEL);
    const builtins = !/^n/i.test((await lines.ask("enable the built-in tools (shell, files, web)? [Y/n]: "))?.trim() ?? "");
    return { model: chosen, builtins };
  } finally {
    lines.close();
  }
}
