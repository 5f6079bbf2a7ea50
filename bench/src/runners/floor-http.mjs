/** The floor with node:http instead of fetch and the minimal JSON-RPC client (see floor.mjs). */
import { setup as floorSetup } from "./floor.mjs";

export const setup = (config) => floorSetup({ ...config, mcp: "rpc", http: "node" });
