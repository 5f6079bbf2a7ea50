export { createKernel, type KernelOptions } from "./kernel.js";
export { DEFAULT_TOOL_TIMEOUT_MS } from "./tool-executor.js";
export { PluginOptionsError, type OptionProblem } from "./plugin-options-error.js";
