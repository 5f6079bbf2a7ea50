/** The floor with the minimal hand-written JSON-RPC client instead of the official MCP client (see floor.mjs). */
import { setup as floorSetup } from "./floor.mjs";

export const setup = (config) => floorSetup({ ...config, mcp: "rpc" });
