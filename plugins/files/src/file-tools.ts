import path from "node:path";
import { ConfinedRoot, keepTools, type Tool } from "@weft/sdk";
import { deleteTool } from "./file-delete.js";
import { editTool } from "./file-edit.js";
import { globTool } from "./file-glob.js";
import { listTool } from "./file-list.js";
import { readTool } from "./file-read.js";
import { searchTool } from "./file-search.js";
import { workdirTool } from "./file-workdir.js";
import { writeTool } from "./file-write.js";

export const FILES_PLUGIN_NAME = "@weft/plugin-files";

export interface FileToolsOptions {
  /** The folder every path is relative to; it must exist. Relative to the working directory; the working directory when absent. */
  root?: string;
  /** The built-in `read`, `write`, `edit`, `grep`, `glob` instead of the `file_*` pack tools. */
  builtins?: boolean;
  /** Tool name → false drops it. */
  tools?: Record<string, boolean>;
}

/** The pack tools over one confined root. */
export function packFileTools(root: ConfinedRoot): Tool[] {
  return [
    readTool(root, "file_read"),
    writeTool(root, "file_write"),
    editTool(root, "file_edit"),
    listTool(root, "file_list"),
    deleteTool(root, "file_delete"),
    workdirTool(root, "file_workdir"),
    searchTool(root, "file_search"),
  ];
}

/** The built-in tools over one confined root: the same implementations under their built-in names. */
export function builtinFileTools(root: ConfinedRoot): Tool[] {
  const source = { kind: "builtin", id: FILES_PLUGIN_NAME } as const;
  return [readTool(root, "read"), writeTool(root, "write"), editTool(root, "edit"), searchTool(root, "grep"), globTool(root, "glob")].map(
    (tool) => ({ ...tool, source }),
  );
}

/**
 * The pack's tools for code use. The root is opened (and checked) once, here: a missing folder is an
 * error now rather than on every call.
 */
export async function fileTools(options: FileToolsOptions = {}): Promise<Tool[]> {
  const root = await ConfinedRoot.open(path.resolve(options.root ?? "."));
  return keepTools(options.builtins ? builtinFileTools(root) : packFileTools(root), options.tools);
}
