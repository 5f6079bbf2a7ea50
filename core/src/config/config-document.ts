import { readFile } from "node:fs/promises";
import { LineCounter, isMap, isScalar, parseDocument, visit, type Document, type Node } from "@weft/sdk/yaml";
import { ConfigError, errorMessage, expandEnvVariables, type WeftErrorCode } from "@weft/sdk";

/** A key path into the document: `["plugins", 2, "files", "root"]`. */
export type ConfigPath = (string | number)[];

/** A parsed YAML config that remembers where every value came from, for errors with line and column. */
export class ConfigDocument {
  private constructor(
    readonly file: string,
    private readonly document: Document,
    private readonly lines: LineCounter,
    /** The values `${VAR}` references took from the environment: secrets to redact wherever they show. */
    readonly expandedValues: ReadonlySet<string>,
  ) {}

  static async read(file: string): Promise<ConfigDocument> {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw new ConfigError({ file }, `cannot read the config file: ${errorMessage(error)}`, { code: "CONFIG_NOT_FOUND", cause: error });
    }
    return ConfigDocument.parse(file, text);
  }

  static parse(file: string, text: string, env: NodeJS.ProcessEnv = process.env): ConfigDocument {
    const lines = new LineCounter();
    const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
    const [first] = document.errors;
    if (first) {
      const { line, col } = lines.linePos(first.pos[0]);
      throw new ConfigError({ file, line, column: col }, `invalid YAML: ${first.message.split("\n")[0]}`);
    }
    const expanded = new Set<string>();
    // `${VAR}` / `${VAR:-default}` in any string value, expanded once, here, so an unset one names its line.
    visit(document, {
      Scalar(_, node) {
        if (typeof node.value !== "string" || !node.value.includes("${")) return;
        try {
          node.value = expandEnvVariables(node.value, env, expanded);
        } catch (error) {
          const { line, col } = lines.linePos(node.range?.[0] ?? 0);
          throw new ConfigError({ file, line, column: col }, errorMessage(error));
        }
      },
    });
    return new ConfigDocument(file, document, lines, expanded);
  }

  /** The key node of the last step of `path` (for errors about the key itself, such as a typo). */
  #keyNode(path: ConfigPath): unknown {
    const parent = path.length > 1 ? this.document.getIn(path.slice(0, -1), true) : this.document.contents;
    const key = path[path.length - 1];
    return isMap(parent) ? parent.items.find((pair) => isScalar(pair.key) && pair.key.value === key)?.key : undefined;
  }

  /** The plain JavaScript value of the whole document (`{}` for an empty file). */
  value(): unknown {
    return this.document.toJS() ?? {};
  }

  /** The line `path` is written on (its key's), or undefined when the file does not hold it. */
  lineOf(path: ConfigPath): number | undefined {
    const node = (path.length > 0 ? this.#keyNode(path) : this.document.contents) as Node | undefined;
    return node?.range ? this.lines.linePos(node.range[0]).line : undefined;
  }

  /** An error located at `path`, or at its nearest ancestor present in the file. */
  error(path: ConfigPath, problem: string, options: { code?: WeftErrorCode; cause?: unknown; atKey?: boolean } = {}): ConfigError {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = (options.atKey && depth === path.length ? this.#keyNode(path) : this.document.getIn(path.slice(0, depth), true)) as Node | undefined;
      if (node?.range) {
        const { line, col } = this.lines.linePos(node.range[0]);
        return new ConfigError({ file: this.file, line, column: col, path: formatPath(path) }, problem, options);
      }
    }
    return new ConfigError({ file: this.file, path: formatPath(path) }, problem, options);
  }
}

/** `["plugins", 2, "files", "root"]` → `plugins[2].files.root`. */
function formatPath(path: ConfigPath): string {
  return path.map((key, index) => (typeof key === "number" ? `[${key}]` : index === 0 ? key : `.${key}`)).join("");
}

