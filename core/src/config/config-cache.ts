import { readFileSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { YAML_VERSION, isRecord } from "@weft/sdk";
import type { ParsedConfig } from "./config-document.js";
import { isPlainObject } from "./plain-object.js";

// The YAML of a config file as data, kept between runs so a start that reads the same text again skips
// yaml (~190 KB of JavaScript to compile, and the parse). An entry holds the whole text it was parsed
// from and is used only for that exact text, so an edit is read fresh; `${VAR}` expansion happens after
// it, so a changed environment is too. Only the file's own text is cached: never what plugins make of it.
// An entry is also tied to what parsed it: this file's layout (FORMAT; bump it when config-yaml.ts
// changes what it returns) and the yaml inside the sdk.
const FORMAT = 1;
const PARSER = `${FORMAT} yaml ${YAML_VERSION}`;

/** `$WEFT_CACHE_DIR`, else `$XDG_CACHE_HOME/weft`, else `~/.cache/weft`. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.WEFT_CACHE_DIR ?? path.join(env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"), "weft");
}

/** The file of `file`'s entry in one of the cache's folders (`config`, `checks`). */
export function cacheEntryFile(folder: string, file: string, env: NodeJS.ProcessEnv): string {
  return path.join(cacheDir(env), folder, `${pathHash(file)}.json`);
}

/**
 * FNV-1a (32 bits) of the path: a short, stable file name. Two paths that share one only take turns
 * (an entry names its path, checked on read), so no cryptographic hash, whose module would load on
 * every start for this alone.
 */
function pathHash(file: string): string {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(file)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
}

/** The parse of `text` kept for `file`, when the entry was made from this exact text. */
export function readCachedConfig(file: string, text: string, env: NodeJS.ProcessEnv): ParsedConfig | undefined {
  let entry: unknown;
  try {
    entry = JSON.parse(readFileSync(cacheEntryFile("config", file, env), "utf8"));
  } catch {
    // None yet, unreadable or cut short: the file is parsed, and the entry written again.
    return undefined;
  }
  if (!isRecord(entry) || entry.parser !== PARSER || entry.file !== file || entry.text !== text || !isRecord(entry.positions)) return undefined;
  return { value: entry.value, positions: entry.positions as ParsedConfig["positions"] };
}

/** Keeps `parsed` for `file`; best effort (a read-only home only costs the next start its parse). */
export async function writeCachedConfig(file: string, text: string, parsed: ParsedConfig, env: NodeJS.ProcessEnv): Promise<void> {
  // JSON keeps what YAML's core schema gives but `.inf`, `.nan` and -0: such a config is parsed each time.
  if (!isJson(parsed.value)) return;
  await writeCacheEntry(cacheEntryFile("config", file, env), { parser: PARSER, file, text, ...parsed });
}

/** Writes a cache entry whole, then renames it into place, so a reader never sees half of one; best effort. */
export async function writeCacheEntry(target: string, entry: object): Promise<void> {
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    await writeFile(temporary, JSON.stringify(entry), { mode: 0o600 });
    await rename(temporary, target);
  } catch {
    // Not cached; nothing else depends on it.
  }
}

function isJson(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(isJson);
  return isPlainObject(value) && Object.values(value).every(isJson);
}
