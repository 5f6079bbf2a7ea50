// `@weft/core/project`: the kernel, config loading, trust and the toolkit, without the agent loop.
// The root entry re-exports all of it. A host that loads a project only to list, describe or call its
// tools (`weft tools`, `plugins`, `call`, `mcp …`) imports this entry instead, so it neither loads nor
// compiles the agent, its compaction and its session stores (about 40% of core's code) at start.
export { createKernel, type KernelOptions } from "./kernel.js";
export { DEFAULT_TOOL_TIMEOUT_MS } from "./tool-executor.js";
export { PluginOptionsError, type OptionProblem } from "./plugin-options-error.js";
export { loadProject, readProjectConfig, type LoadProjectOptions, type Project } from "./config/load-project.js";
export { findConfigFile, CONFIG_FILE_NAMES } from "./config/find-config.js";
export { configSchema, type ConfigSchemaOptions } from "./config/config-schema.js";
export { settingOrigins, type SettingOrigin } from "./config/setting-origins.js";
export { projectMcpJson, PROJECT_MCP_JSON } from "./config/project-mcp-json.js";
export { importPlugin, pluginCandidates, type ResolvedPlugin } from "./config/plugin-resolver.js";
export type { ProjectConfig, PluginEntry } from "./config/project-config.js";
export { coreBuiltins } from "./builtins/core-builtins.js";
export { questionTool } from "./builtins/question.js";
export { todowriteTool } from "./builtins/todowrite.js";
export { renderTodos, type TodoItem, type TodoList } from "./builtins/todo-list.js";
export { createToolkit, type Toolkit } from "./toolkit/toolkit.js";
export type { ToolkitOptions, ToolkitCoreOptions, PluginSpec } from "./toolkit/toolkit-options.js";
export { ensureProjectTrusted, trustRequest, type TrustOptions, type TrustRequest } from "./config/project-trust.js";
export { addTrust, readTrust, revokeTrust, trustStoreFile, type TrustEntry } from "./config/trust-store.js";
