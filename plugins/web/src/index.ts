import { webPlugin } from "./plugin.js";

export default webPlugin;
export { webPlugin };
export { searchBackend, webTools, type WebToolsOptions } from "./web-tools.js";
export { DONSETCH_TOOL_TIMEOUT_MS, donsetchMcpConfig } from "./donsetch.js";
// convertHtml itself is not exported: importing it would load turndown with the plugin.
export type { ConvertedHtml, PageFormat } from "./html-conversion.js";
export { DEFAULT_WEB_LIMITS, type WebLimits } from "./web-limits.js";
export type { SearchBackend } from "./web-search.js";
