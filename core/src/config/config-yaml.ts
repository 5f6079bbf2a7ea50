import { ConfigError } from "@weft/sdk";
import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument, type Node } from "@weft/sdk/yaml";
import { ConfigDocument, positionKey, type ConfigPath, type NodePosition, type ParsedConfig, type TextPosition } from "./config-document.js";

/**
 * `text` as data and positions (see ParsedConfig). Throws the first YAML error at its line; keys must
 * be unique. An alias is one node where it is written: errors inside it point at the alias.
 */
export function parseConfigYaml(file: string, text: string): ParsedConfig {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const [first] = document.errors;
  if (first) {
    const { line, col } = lines.linePos(first.pos[0]);
    throw new ConfigError({ file, line, column: col }, `invalid YAML: ${first.message.split("\n")[0]}`);
  }
  const positions: Record<string, NodePosition> = {};
  const positionOf = (node: unknown): TextPosition | undefined => {
    const range = (node as Node | null)?.range;
    return range ? lines.linePos(range[0]) : undefined;
  };
  const record = (node: unknown, path: ConfigPath, key?: unknown) => {
    const entry: NodePosition = { at: positionOf(node), key: positionOf(key) };
    if (entry.at || entry.key) positions[positionKey(path)] = entry;
    if (isAlias(node)) return;
    if (isMap(node)) for (const pair of node.items) if (isScalar(pair.key)) record(pair.value, [...path, String(pair.key.value)], pair.key);
    if (isSeq(node)) for (const [index, item] of node.items.entries()) record(item, [...path, index]);
  };
  record(document.contents, []);
  return { value: document.toJS(), positions };
}

/** `text` as a document of `file`, through yaml (no cache): for tests and for text not read from a file. */
export function parseConfigDocument(file: string, text: string, env: NodeJS.ProcessEnv = process.env): ConfigDocument {
  return ConfigDocument.fromParsed(file, parseConfigYaml(file, text), env);
}
