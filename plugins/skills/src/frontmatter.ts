import { LineCounter, isAlias, isMap, isNode, isScalar, parseDocument, type Document } from "@weft/sdk/yaml";
import { isRecord } from "@weft/sdk";
import { InvalidFrontmatterError } from "./skill-errors.js";

/** A SKILL.md split into its frontmatter and its Markdown body. */
export interface SkillFile {
  /** Every frontmatter field as plain data, known or not. */
  fields: Record<string, unknown>;
  /** `name` and `description` as text; absent when the field is missing or empty. */
  name?: string;
  description?: string;
  /** The Markdown after the frontmatter, without leading blank lines or trailing whitespace. */
  body: string;
}

/** Frontmatter sits between a first line `---` and the next line `---`. */
const FRONTMATTER = /^---[ \t]*\n([\s\S]*?\n)?---[ \t]*(?:\n|$)/;

/**
 * Parses a SKILL.md. Invalid YAML, a frontmatter that is not a map and a `name` or `description` that
 * is not a scalar are InvalidFrontmatterError with the file's line; a missing field is left for the
 * caller, which decides whether that is an error (loading) or one problem among others (validation).
 */
export function parseSkillFile(text: string, file: string): SkillFile {
  const normalised = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const match = FRONTMATTER.exec(normalised);
  if (!match) {
    throw new InvalidFrontmatterError(file, 1, "no frontmatter: the file must start with a line --- then YAML with name and description, then a line ---");
  }
  const yamlText = match[1] ?? "";
  const lineCounter = new LineCounter();
  const document = parseDocument(yamlText, { lineCounter, prettyErrors: false });
  // Lines of the YAML text are one below the file's: the opening `---` comes first.
  const fileLine = (offset: number) => lineCounter.linePos(offset).line + 1;
  const [error] = document.errors;
  if (error) throw new InvalidFrontmatterError(file, fileLine(error.pos[0]), `invalid YAML in frontmatter: ${error.message}`, { cause: error });
  const contents = document.contents;
  if (contents !== null && !isMap(contents)) {
    throw new InvalidFrontmatterError(file, fileLine(contents.range?.[0] ?? 0), "the frontmatter must be a YAML map of fields (name: ..., description: ...)");
  }
  const parsed: unknown = document.toJS();
  const fields = isRecord(parsed) ? parsed : {};
  return {
    fields,
    name: scalarField(document, "name", file, fileLine),
    description: scalarField(document, "description", file, fileLine),
    body: normalised.slice(match[0].length).replace(/^\s*\n/, "").trimEnd(),
  };
}

function scalarField(document: Document, key: string, file: string, fileLine: (offset: number) => number): string | undefined {
  let node: unknown = document.get(key, true);
  if (isAlias(node)) node = node.resolve(document);
  if (node === undefined || node === null) return undefined;
  if (!isScalar(node)) {
    const offset = isNode(node) ? (node.range?.[0] ?? 0) : 0;
    throw new InvalidFrontmatterError(file, fileLine(offset), `"${key}" must be a single text value, not a list or a map`);
  }
  if (node.value === null || node.value === undefined) return undefined;
  const text = String(node.value).trim();
  return text === "" ? undefined : text;
}
