import { filesPlugin } from "./plugin.js";

export default filesPlugin;
export { filesPlugin };
export { builtinFileTools, fileTools, packFileTools, type FileToolsOptions } from "./file-tools.js";
