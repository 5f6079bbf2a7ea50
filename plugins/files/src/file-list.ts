import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { defineTool, errorResult, escapeXmlAttribute, type ConfinedRoot, Type } from "@weft/sdk";
import { fileFailure } from "./file-failure.js";
import { compareNames } from "./tree-walk.js";

/** Entries listed at most; a folder with more ends with a `<more count="n"/>` line. */
const MAX_LIST_ENTRIES = 1000;

const input = Type.Object({
  path: Type.Optional(Type.String({ description: "Root-relative; default: the root" })),
});

/** Lists one folder: one element per entry, sorted by name. */
export function listTool(root: ConfinedRoot, name: string) {
  return defineTool({
    name,
    description:
      "List a folder's entries, sorted by name.",
    input,
    annotations: { readOnlyHint: true },
    async execute({ path: requested = "" }) {
      const shown = requested === "" ? "the root" : requested;
      try {
        if (!(await stat(await root.resolve(requested))).isDirectory()) return errorResult(`${requested} is a file, not a folder`);
        const { path: folder, entries: unsorted } = await root.readFolder(requested);
        const entries = unsorted.sort((a, b) => compareNames(a.name, b.name));
        if (entries.length === 0) return { output: `(empty folder: ${folder})` };
        const lines: string[] = [];
        for (const entry of entries.slice(0, MAX_LIST_ENTRIES)) lines.push(await describeEntry(root, path.join(folder, entry.name), entry.name));
        if (entries.length > MAX_LIST_ENTRIES) lines.push(`<more count="${entries.length - MAX_LIST_ENTRIES}"/>`);
        return { output: lines.join("\n") };
      } catch (error) {
        return fileFailure(error, shown);
      }
    },
  });
}

async function describeEntry(root: ConfinedRoot, absolute: string, name: string): Promise<string> {
  const attributes = (size?: number) =>
    `name="${escapeXmlAttribute(name)}"${size === undefined ? "" : ` size="${size}"`} path="${escapeXmlAttribute(absolute)}"`;
  try {
    // A symlink is shown as what it points to, when that stays inside the root.
    if (!root.contains(await realpath(absolute))) return `<link ${attributes()}/>`;
    const info = await stat(absolute);
    return info.isDirectory() ? `<dir ${attributes()}/>` : `<file ${attributes(info.size)}/>`;
  } catch {
    return `<link ${attributes()}/>`;
  }
}
