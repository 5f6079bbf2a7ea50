import { readFileSync } from "node:fs";
import { ConfigError, errorMessage, expandEnvVariables, type WeftErrorCode } from "@weft/sdk";
import { readCachedConfig, writeCachedConfig } from "./config-cache.js";
import { isPlainObject } from "./plain-object.js";

/** A key path into the document: `["plugins", 2, "files", "root"]`. */
export type ConfigPath = (string | number)[];

/** A line and column, 1-based, as yaml's LineCounter gives them. */
export interface TextPosition {
  line: number;
  col: number;
}

/** Where a node is written (`at`) and, for a map entry, where its key is. */
export interface NodePosition {
  at?: TextPosition;
  key?: TextPosition;
}

/**
 * A config file's YAML as plain data, before `${VAR}` expansion: its value and the position of every
 * node, keyed by `positionKey(path)`. What the cache keeps, so a config read again needs no yaml.
 */
export interface ParsedConfig {
  value: unknown;
  positions: Record<string, NodePosition>;
}

export const positionKey = (path: ConfigPath): string => JSON.stringify(path);

/** A parsed YAML config that remembers where every value came from, for errors with line and column. */
export class ConfigDocument {
  private constructor(
    readonly file: string,
    private readonly data: unknown,
    private readonly positions: Record<string, NodePosition>,
    /** The values `${VAR}` references took from the environment: secrets to redact wherever they show. */
    readonly expandedValues: ReadonlySet<string>,
  ) {}

  /** Reads `file`: from the parse cache when it holds this exact text, else through yaml (then cached). */
  static async read(file: string, env: NodeJS.ProcessEnv = process.env): Promise<ConfigDocument> {
    let text: string;
    try {
      // A config is a small local file: one synchronous read, not the four thread-pool round trips of
      // fs/promises' readFile, each of which a start waits for (so do the cache reads beside it).
      text = readFileSync(file, "utf8");
    } catch (error) {
      throw new ConfigError({ file }, `cannot read the config file: ${errorMessage(error)}`, { code: "CONFIG_NOT_FOUND", cause: error });
    }
    const cached = readCachedConfig(file, text, env);
    if (cached) return ConfigDocument.fromParsed(file, cached, env);
    // yaml (~190 KB to compile) loads only for a config text not read before.
    const { parseConfigYaml } = await import("./config-yaml.js");
    const parsed = parseConfigYaml(file, text);
    await writeCachedConfig(file, text, parsed, env);
    return ConfigDocument.fromParsed(file, parsed, env);
  }

  /**
   * The document of `parsed`, with `${VAR}` / `${VAR:-default}` expanded in every string (keys too),
   * here, after the cache, so a changed environment is always read, and an unset one names its line.
   */
  static fromParsed(file: string, parsed: ParsedConfig, env: NodeJS.ProcessEnv): ConfigDocument {
    const expanded = new Set<string>();
    const positions: Record<string, NodePosition> = {};
    const expand = (text: string, at: TextPosition | undefined): string => {
      if (!text.includes("${")) return text;
      try {
        return expandEnvVariables(text, env, expanded);
      } catch (error) {
        throw new ConfigError({ file, line: at?.line ?? 1, column: at?.col ?? 1 }, errorMessage(error));
      }
    };
    const walk = (value: unknown, from: ConfigPath, to: ConfigPath): unknown => {
      const position = parsed.positions[positionKey(from)];
      if (position) positions[positionKey(to)] = position;
      if (typeof value === "string") return expand(value, position?.at);
      if (Array.isArray(value)) return value.map((item, index) => walk(item, [...from, index], [...to, index]));
      if (!isPlainObject(value)) return value;
      // fromEntries, not assignment: a `__proto__` key stays an own key, as yaml's toJS makes it.
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => {
          const name = expand(key, parsed.positions[positionKey([...from, key])]?.key);
          return [name, walk(item, [...from, key], [...to, name])];
        }),
      );
    };
    const data = walk(parsed.value, [], []);
    return new ConfigDocument(file, data, positions, expanded);
  }

  /** The plain JavaScript value of the whole document (`{}` for an empty file). */
  value(): unknown {
    return structuredClone(this.data ?? {});
  }

  /** The line `path` is written on (its key's), or undefined when the file does not hold it. */
  lineOf(path: ConfigPath): number | undefined {
    const position = this.positions[positionKey(path)];
    return (path.length > 0 ? position?.key : position?.at)?.line;
  }

  /** An error located at `path`, or at its nearest ancestor present in the file. */
  error(path: ConfigPath, problem: string, options: { code?: WeftErrorCode; cause?: unknown; atKey?: boolean } = {}): ConfigError {
    for (let depth = path.length; depth >= 0; depth--) {
      const position = this.positions[positionKey(path.slice(0, depth))];
      const at = options.atKey && depth === path.length ? position?.key : position?.at;
      if (at) return new ConfigError({ file: this.file, line: at.line, column: at.col, path: formatPath(path) }, problem, options);
    }
    return new ConfigError({ file: this.file, path: formatPath(path) }, problem, options);
  }
}

/** `["plugins", 2, "files", "root"]` → `plugins[2].files.root`. */
function formatPath(path: ConfigPath): string {
  return path.map((key, index) => (typeof key === "number" ? `[${key}]` : index === 0 ? key : `.${key}`)).join("");
}
