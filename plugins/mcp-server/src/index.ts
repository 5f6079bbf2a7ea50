export { createToolkitServer, type ServedToolkit, type ToolkitServerOptions } from "./toolkit-server.js";
export { serveHttp, serveStdio, type HttpServeOptions, type ObservedToolkit, type ServedHttp } from "./serve-toolkit.js";
export { catalogSkills, type CatalogSkill } from "./skill-prompts.js";
