import path from "node:path";
import { ConfinedRoot, keepTools, type Tool } from "@weft/sdk";
import { applyPatchTool } from "./apply-patch.js";

export const CODING_PLUGIN_NAME = "@weft/plugin-coding";

export interface CodingToolsOptions {
  /** The folder patch paths are relative to; it must exist. The working directory when absent. */
  root?: string;
  /** Tool name → false drops it. */
  tools?: Record<string, boolean>;
}

/** The coding pack's built-in tools for code use: `apply_patch` over one confined root. */
export async function codingBuiltinTools(options: CodingToolsOptions = {}): Promise<Tool[]> {
  const root = await ConfinedRoot.open(path.resolve(options.root ?? "."));
  return keepTools([{ ...applyPatchTool(root), source: { kind: "builtin", id: CODING_PLUGIN_NAME } }], options.tools);
}
