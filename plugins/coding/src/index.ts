import { codingPlugin } from "./plugin.js";

export default codingPlugin;
export { codingPlugin };
export { codingBuiltinTools, type CodingToolsOptions } from "./coding-tools.js";
export { APPLY_PATCH_DESCRIPTION, applyPatchTool } from "./apply-patch.js";
export { parsePatch, PatchSyntaxError, type PatchChunk, type PatchOperation } from "./patch-parser.js";
export { SERENA_FROM, SERENA_TOOL_TIMEOUT_MS, serenaMcpConfig } from "./serena.js";
