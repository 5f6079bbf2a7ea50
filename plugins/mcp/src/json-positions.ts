import { createRequire } from "node:module";
import type { Document, LineCounter, Node } from "yaml";

// yaml (some 70 files) loads when an error first asks for a line, not with every mcp.json read: most are valid.
const require = createRequire(import.meta.url);

/** A key path into a JSON document: `["mcpServers", "web", "headers", "Authorization"]`. */
export type JsonPath = (string | number)[];

/** Where the values of one JSON text are, for errors that name a line and column. */
export interface JsonPositions {
  /** The 1-based line and column of the value at `path`, or of its nearest ancestor in the text. */
  at(path: JsonPath): { line: number; column: number } | undefined;
}

/**
 * The positions of a JSON text (already checked by `JSON.parse`). JSON is YAML 1.2, so it is read with
 * the parser and line counter weft.config.yaml is read with (core's config document); a text that parser
 * cannot read gives no positions, and errors then name the file alone.
 */
export function jsonPositions(text: string): JsonPositions {
  let parsed: { document: Document; lines: LineCounter } | undefined;
  return {
    at(path) {
      parsed ??= parse(text);
      const { document, lines } = parsed;
      if (document.errors.length > 0) return undefined;
      for (let depth = path.length; depth >= 0; depth--) {
        const node = (depth === 0 ? document.contents : document.getIn(path.slice(0, depth), true)) as Node | null | undefined;
        if (node?.range) {
          const { line, col } = lines.linePos(node.range[0]);
          return { line, column: col };
        }
      }
      return undefined;
    },
  };
}

function parse(text: string): { document: Document; lines: LineCounter } {
  const { LineCounter, parseDocument } = require("yaml") as typeof import("yaml");
  const lines = new LineCounter();
  return { document: parseDocument(text, { lineCounter: lines, prettyErrors: false }), lines };
}
