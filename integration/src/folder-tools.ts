import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { Type } from "@weft/sdk/typebox";
import { defineTool, errorResult, type Tool } from "@weft/sdk";

/** Two real tools over a folder on disk, for the agent under test to call. */
export function folderTools(dir: string): Tool<any>[] {
  const readFileTool = defineTool({
    name: "read_file",
    description: "Read a text file of the workspace",
    input: Type.Object({ path: Type.String({ description: "File name inside the workspace" }) }),
    execute: async ({ path: name }) => {
      const files = await readdir(dir);
      if (!files.includes(name)) return errorResult(`no such file: ${name}`);
      return { output: await readFile(path.join(dir, name), "utf8") };
    },
  });
  const listFilesTool = defineTool({
    name: "list_files",
    description: "List the files of the workspace",
    input: Type.Object({}),
    execute: async () => ({ output: (await readdir(dir)).sort().join("\n") }),
  });
  return [readFileTool, listFilesTool];
}
