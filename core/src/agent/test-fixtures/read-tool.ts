import { Type } from "typebox";
import { defineTool, type AnyTool } from "@weft/sdk";

/**
 * The `read` tool the agent tests offer: it answers `output(path)` at once, by default `contents of <path>`,
 * and records each path it was called with in `reads`.
 */
export function readTool(reads: string[] = [], output: (path: string) => string = (path) => `contents of ${path}`): AnyTool {
  return defineTool({
    name: "read",
    description: "Read a file",
    input: Type.Object({ path: Type.String() }),
    execute: ({ path }) => {
      reads.push(path);
      return { output: output(path) };
    },
  });
}
