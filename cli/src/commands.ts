import type { Command } from "./command.js";

/** A command as `weft help` lists it; its module is imported only when it runs or shows its help. */
export interface CommandEntry {
  name: string;
  /** One line for `weft help`. */
  summary: string;
  load(): Promise<Command>;
}

const command = (module: Promise<{ default: Command }>) => module.then((loaded) => loaded.default);

/** Every `weft` command, in the order `weft help` lists them. A new command: one file in commands/, one line here. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: "run", summary: "run one prompt through an agent on the project's model and tools, streaming the answer", load: () => command(import("./commands/run.js")) },
  { name: "chat", summary: "an interactive session with history; Ctrl-C stops the running turn", load: () => command(import("./commands/chat.js")) },
  { name: "plugins", summary: "list the plugins weft.config.yaml enables: name, version, where each was loaded from, where each setting came from", load: () => command(import("./commands/plugins.js")) },
  { name: "tools", summary: "list every tool the project gives the model: name, source, schema size, description", load: () => command(import("./commands/tools.js")) },
  { name: "call", summary: "run one tool through the execute path and print its result", load: () => command(import("./commands/call.js")) },
  { name: "mcp", summary: "the project's MCP servers: list their state, start or stop one", load: () => command(import("./commands/mcp.js")) },
  { name: "skills", summary: "list the project's skills, or validate a skill folder", load: () => command(import("./commands/skills.js")) },
  { name: "config", summary: "print the JSON Schema of weft.config.yaml for this install's plugins (editor completion)", load: () => command(import("./commands/config.js")) },
  { name: "init", summary: "write a starter weft.config.yaml here", load: () => command(import("./commands/init.js")) },
  { name: "sessions", summary: "the sessions in the store the project config names: migrate, list, show or delete", load: () => command(import("./commands/sessions.js")) },
  { name: "trust", summary: "trust this project's config (it names code to run), list trusted configs, or revoke one", load: () => command(import("./commands/trust.js")) },
  { name: "new-plugin", summary: "scaffold a third-party pack built against @weft/sdk, with a passing test", load: () => command(import("./commands/new-plugin.js")) },
];
