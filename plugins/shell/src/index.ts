import { shellPlugin } from "./plugin.js";

export default shellPlugin;
export { shellPlugin };
export { bashTool, shellRunTool, shellTools, type ShellToolsOptions } from "./shell-tools.js";
export { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, type ShellToolOptions } from "./command-tool.js";
