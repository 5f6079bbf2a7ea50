import type { Command } from "./command.js";
import { callCommand } from "./commands/call.js";
import { chatCommand } from "./commands/chat.js";
import { initCommand } from "./commands/init.js";
import { mcpCommand } from "./commands/mcp.js";
import { newPluginCommand } from "./commands/new-plugin.js";
import { pluginsCommand } from "./commands/plugins.js";
import { skillsCommand } from "./commands/skills.js";
import { runCommand } from "./commands/run.js";
import { sessionsCommand } from "./commands/sessions.js";
import { toolsCommand } from "./commands/tools.js";

/** Every `weft` command, in the order `weft help` lists them. */
export const COMMANDS: Command[] = [runCommand, chatCommand, pluginsCommand, toolsCommand, callCommand, mcpCommand, skillsCommand, initCommand, newPluginCommand, sessionsCommand];
