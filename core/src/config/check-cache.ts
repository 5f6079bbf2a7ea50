import { readFileSync } from "node:fs";
import { TYPEBOX_VERSION, isRecord } from "@weft/sdk";
import { rememberPasses, usedPasses } from "../passed-checks.js";
import { cacheEntryFile, writeCacheEntry } from "./config-cache.js";

// The option checks a project's start passed, kept for its next start (one entry per config file, in
// the cache's `checks` folder). An entry holds the exact text of each passed check (schema and value:
// passed-checks.ts), so a changed option or plugin schema is simply not found, and checked. It is tied
// to the checker too: this file's layout (FORMAT; bump it when checkKey changes) and the typebox inside
// the sdk, so a later typebox checks everything again.
const FORMAT = 1;
const CHECKER = `${FORMAT} typebox ${TYPEBOX_VERSION}`;

/** Makes the checks `file`'s last start passed count as passed; returns them, for `keepPassedChecks`. */
export function recallPassedChecks(file: string, env: NodeJS.ProcessEnv): string[] {
  let entry: unknown;
  try {
    entry = JSON.parse(readFileSync(cacheEntryFile("checks", file, env), "utf8"));
  } catch {
    // None yet, unreadable or cut short: every check runs, and the entry is written again.
    return [];
  }
  if (!isRecord(entry) || entry.checker !== CHECKER || entry.file !== file || !Array.isArray(entry.passed)) return [];
  const passed = entry.passed.filter((key): key is string => typeof key === "string");
  rememberPasses(passed);
  return passed;
}

/**
 * Keeps the checks this start passed for `file`'s next one, when they are not what `recalled` already
 * held. A check whose value holds one of `secrets` (the values `${VAR}` took from the environment, which
 * the config cache never writes down either) is not kept: it runs at every start.
 */
export async function keepPassedChecks(file: string, recalled: string[], secrets: ReadonlySet<string>, env: NodeJS.ProcessEnv): Promise<void> {
  // As a key's JSON holds them.
  const written = [...secrets].map((secret) => JSON.stringify(secret).slice(1, -1));
  const passed = usedPasses().filter((key) => !written.some((secret) => key.includes(secret)));
  const known = new Set(recalled);
  if (passed.length === known.size && passed.every((key) => known.has(key))) return;
  await writeCacheEntry(cacheEntryFile("checks", file, env), { checker: CHECKER, file, passed });
}
