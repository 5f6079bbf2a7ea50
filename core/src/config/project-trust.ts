import { readFile, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { WeftError, isRecord } from "@weft/sdk";
import { resolvePackageSpecifier } from "./package-resolver.js";
import { isPathName, pluginCandidates } from "./plugin-resolver.js";
import type { ProjectConfig } from "./project-config.js";
import { addTrust, isTrusted } from "./trust-store.js";

/** What in a config would run code, and the hash trust is given to. */
export interface TrustRequest {
  /** The config file's real path (the store's key). */
  file: string;
  /** sha256 of the config file and every file it names whose content decides what runs (mcp.json). */
  hash: string;
  /** One line per thing that would run code: `plugin ./evil.js`, `MCP server fs (npx ...)`, `skill scripts in ./skills`. */
  reasons: string[];
}

// Entries looked at per skills folder when searching for scripts: a bound on a hostile tree.
const MAX_SKILL_ENTRIES = 10_000;

/**
 * What a project config would run if loaded: plugins by path (or installed inside the project, which
 * is the project's own code), MCP stdio commands, skills that ship executable files.
 */
export async function trustRequest(configFile: string, config: ProjectConfig): Promise<TrustRequest> {
  const file = await realpath(configFile);
  const dir = path.dirname(file);
  // Loaded here: a start that trusts every config (WEFT_TRUST_ALL) never needs it.
  const { createHash } = await import("node:crypto");
  const hash = createHash("sha256").update(await readFile(file));
  const reasons: string[] = [];
  for (const entry of config.plugins) {
    if (isPathName(entry.name)) reasons.push(`plugin ${entry.name} (code in the project)`);
    else if (installedInside(entry.name, dir)) reasons.push(`plugin ${entry.name} (installed in the project's own node_modules)`);
  }
  let servers: [string, unknown][] = [];
  if (typeof config.mcp === "string") {
    const text = await readFile(path.resolve(dir, config.mcp), "utf8").catch(() => "");
    hash.update(`\0${config.mcp}\0${text}`);
    servers = serversOf(safeJson(text));
  } else if (config.mcp) {
    servers = serversOf(config.mcp);
  }
  for (const [name, server] of servers) {
    const command = isRecord(server) ? server.command : undefined;
    if (typeof command === "string") reasons.push(`MCP server ${name} (runs ${command})`);
  }
  for (const folder of config.skills ?? []) {
    if (await holdsExecutable(path.resolve(dir, folder))) reasons.push(`skill scripts in ${folder}`);
  }
  return { file, hash: hash.digest("hex"), reasons };
}

export interface TrustOptions {
  env?: NodeJS.ProcessEnv;
  /** Asks the user once; given by a host with a terminal. Without it an untrusted project fails. */
  ask?: (question: string) => Promise<boolean>;
}

/**
 * Refuses to go on with a project config that would run code unless its folder is trusted (this exact
 * content of it), `WEFT_TRUST_ALL=1` is set, or the user says yes when asked.
 */
export async function ensureProjectTrusted(configFile: string, config: ProjectConfig, options: TrustOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  if (env.WEFT_TRUST_ALL === "1") return;
  const request = await trustRequest(configFile, config);
  if (request.reasons.length === 0 || (await isTrusted(request.file, request.hash, env))) return;
  const ask = options.ask ?? (process.stdin.isTTY && process.stderr.isTTY ? askOnTerminal : undefined);
  const what = request.reasons.map((reason) => `  - ${reason}`).join("\n");
  if (ask && (await ask(`${request.file} would run code:\n${what}\nTrust this folder's config and run it? [y/N] `))) {
    await addTrust(request.file, request.hash, env);
    return;
  }
  throw new WeftError(
    "PROJECT_UNTRUSTED",
    `${request.file} is not trusted, and loading it would run code:\n${what}\n` +
      `Read it, then trust it with: weft trust ${path.dirname(request.file)} (or set WEFT_TRUST_ALL=1 where every config is yours, as in CI). ` +
      "Any change to the config withdraws the trust.",
  );
}

async function askOnTerminal(question: string): Promise<boolean> {
  // Imported when a question is asked: every start that finds its project trusted skips loading readline.
  const { createInterface } = await import("node:readline/promises");
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await terminal.question(question)).trim());
  } finally {
    terminal.close();
  }
}

/** Whether a plugin named by package resolves to a module inside the project folder: the project's own code. */
function installedInside(name: string, dir: string): boolean {
  for (const candidate of pluginCandidates(name)) {
    try {
      const resolved = fileURLToPath(resolvePackageSpecifier(candidate, dir));
      return !path.relative(dir, resolved).startsWith("..");
    } catch {
      // Not this candidate; the loader reports a name that resolves to nothing.
    }
  }
  return false;
}

/** The named servers of an mcp.json document or an inline map, whichever shape it has. */
function serversOf(value: unknown): [string, unknown][] {
  if (!value || typeof value !== "object") return [];
  const inner = "mcpServers" in value ? value.mcpServers : undefined;
  return Object.entries(inner && typeof inner === "object" ? inner : value);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Whether a folder tree holds a file with an execute bit (a skill script), within a bounded walk. */
async function holdsExecutable(folder: string): Promise<boolean> {
  const pending = [folder];
  let seen = 0;
  while (seen < MAX_SKILL_ENTRIES) {
    const current = pending.pop();
    if (current === undefined) break;
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      seen += 1;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile() && ((await stat(full)).mode & 0o111) !== 0) return true;
    }
  }
  // A tree too large to finish is treated as holding scripts.
  return pending.length > 0;
}
