export { createKernel, type KernelOptions } from "./kernel.js";
export { DEFAULT_TOOL_TIMEOUT_MS } from "./tool-executor.js";
export { PluginOptionsError, type OptionProblem } from "./plugin-options-error.js";
export { loadProject, type LoadProjectOptions, type Project } from "./config/load-project.js";
export { findConfigFile, CONFIG_FILE_NAMES } from "./config/find-config.js";
export { importPlugin, pluginCandidates, type ResolvedPlugin } from "./config/plugin-resolver.js";
export type { ProjectConfig, PluginEntry } from "./config/project-config.js";
