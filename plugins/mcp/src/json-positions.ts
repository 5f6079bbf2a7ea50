import { LineCounter, parseDocument, type Node } from "yaml";

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
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const readable = document.errors.length === 0;
  return {
    at(path) {
      if (!readable) return undefined;
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
