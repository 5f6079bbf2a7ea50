import { keepTools, type Tool, type ToolSource } from "@weft/sdk";
import { commandTool, type ShellSpec, type ShellToolOptions } from "./command-tool.js";

export const SHELL_PLUGIN_NAME = "@weft/plugin-shell";

const SHELL_RUN: ShellSpec = { name: "shell_run", label: "/bin/sh -c", program: "/bin/sh", args: ["-c"] };
// A tool named bash runs bash; --noprofile --norc keep it from reading startup files, like sh -c.
const BASH: ShellSpec = { name: "bash", label: "bash -c", program: "bash", args: ["--noprofile", "--norc", "-c"] };

/** The pack tool: `shell_run {command, workdir?, timeout_ms?}`. */
export function shellRunTool(options: ShellToolOptions = {}) {
  return commandTool(SHELL_RUN, options);
}

/** The built-in `bash` tool: shell_run under another name, run by bash. */
export function bashTool(options: ShellToolOptions = {}) {
  const source: ToolSource = { kind: "builtin", id: SHELL_PLUGIN_NAME };
  return { ...commandTool(BASH, options), source };
}

export interface ShellToolsOptions extends ShellToolOptions {
  /** The built-in `bash` instead of `shell_run`. */
  builtins?: boolean;
  /** Tool name → false drops it. */
  tools?: Record<string, boolean>;
}

/** The pack's tools for code use: `shell_run`, or `bash` with `builtins: true`. */
export function shellTools(options: ShellToolsOptions = {}): Tool[] {
  const { builtins = false, tools, ...toolOptions } = options;
  const pack: Tool[] = builtins ? [bashTool(toolOptions)] : [shellRunTool(toolOptions)];
  return keepTools(pack, tools);
}
