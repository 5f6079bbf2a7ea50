import { webPlugin } from "./plugin.js";

export default webPlugin;
export { webPlugin };
export { searchBackend, webTools, type WebToolsOptions } from "./web-tools.js";
export { DONSETCH_TOOL_TIMEOUT_MS, donsetchMcpConfig } from "./donsetch.js";
export { convertHtml, type ConvertedHtml, type PageFormat } from "./html-conversion.js";
export { DEFAULT_WEB_LIMITS, type WebLimits } from "./web-limits.js";
export type { SearchBackend } from "./web-search.js";
