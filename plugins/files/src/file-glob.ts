import { defineTool, errorResult, escapeXmlAttribute, type ConfinedRoot, Type } from "@weft/sdk";
import { fileFailure } from "./file-failure.js";
import { loadPicomatch } from "./load-picomatch.js";
import { walkFiles } from "./tree-walk.js";

const MAX_GLOB_RESULTS = 1000;

const input = Type.Object({
  pattern: Type.String({ description: 'Relative to path, e.g. "**/*.ts" or "docs/*.md"' }),
  path: Type.Optional(Type.String({ description: "Root-relative folder; default: the root" })),
});

/** Files whose path matches a glob, sorted by path. */
export function globTool(root: ConfinedRoot, name: string) {
  return defineTool({
    name,
    description:
      `Find files whose path matches a glob (*, **, ?, [abc], {a,b}), sorted, at most ${MAX_GLOB_RESULTS}. Skips .git and node_modules.`,
    input,
    annotations: { readOnlyHint: true },
    async execute({ pattern, path: requested = "" }, ctx) {
      if (pattern.trim() === "") return errorResult("pattern is empty; give a glob such as **/*.ts");
      const matches = (await loadPicomatch())(pattern, { dot: true });
      const found: string[] = [];
      let truncated = false;
      try {
        const start = await root.resolve(requested);
        const base = root.relative(start);
        for await (const file of walkFiles(root, start, ctx.signal)) {
          const relativeToStart = base === "" ? file.relative : file.relative.slice(base.length + 1);
          if (!matches(relativeToStart)) continue;
          if (found.length === MAX_GLOB_RESULTS) {
            truncated = true;
            break;
          }
          found.push(file.relative);
        }
      } catch (error) {
        return fileFailure(error, requested === "" ? "the root" : requested);
      }
      const open = `<glob pattern="${escapeXmlAttribute(pattern)}" matches="${found.length}"${truncated ? ' truncated="true"' : ""}>`;
      return { output: [open, ...found, "</glob>"].join("\n") };
    },
  });
}
