import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { WeftError, errorMessage, isRecord } from "@weft/sdk";
import { parseAuth, resolveAuth, type McpAuthSpec } from "./auth-config.js";
import { expandVariables } from "./expand-variables.js";
import { jsonPositions, type JsonPath, type JsonPositions } from "./json-positions.js";
import { DEFAULT_MAX_RESULT_BYTES } from "./result-limit.js";

/** Connect-and-list limit when a server sets no `timeout`. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** One call's ceiling of quiet time (no result, no progress) when a server sets no `toolTimeout`. */
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;
/** The longest one call may run, progress or not, when a server sets no `callTimeout` (and its `toolTimeout` is shorter). */
export const DEFAULT_CALL_TIMEOUT_MS = 3_600_000;

export interface StdioLaunch {
  kind: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute; the config file's folder when the entry names none. */
  cwd: string;
  inheritEnv: string[];
}

export interface RemoteEndpoint {
  /** `http`: Streamable HTTP, falling back to legacy SSE; `sse`: legacy SSE only. */
  kind: "http" | "sse";
  url: string;
  headers: Record<string, string>;
  /** OAuth for this server (`auth:`); without it a 401 says what to add. */
  auth?: McpAuthSpec;
}

export type ServerTransport = StdioLaunch | RemoteEndpoint;

/** Which of the server's own tool names to register. */
export interface ToolFilter {
  /** Only these, when given. */
  allow?: string[];
  /** Never these (`!name` entries). */
  deny: string[];
}

/**
 * One validated server entry. `${VAR}` references are still in place: `resolveTransport` expands them
 * when the server starts, so a disabled entry may name variables that are not set.
 */
export interface McpServerSpec {
  name: string;
  enabled: boolean;
  timeoutMs: number;
  toolTimeoutMs: number;
  /** The hard limit of one call, whatever its progress: its tools declare it as their `timeoutMs`. */
  callTimeoutMs: number;
  /** The most text one tool result gives the model, in UTF-8 bytes. */
  maxResultBytes: number;
  /** The least severe log message the server should send (`logging/setLevel`). */
  logLevel: McpLogLevel;
  tools?: ToolFilter;
  transport: ServerTransport;
}

export interface ParseOptions {
  /** Relative `cwd` (and the default cwd) resolve from here: the config file's folder. */
  baseDir?: string;
  /** Where `${VAR}` values come from; `process.env` by default. */
  env?: Record<string, string | undefined>;
  /** Named in error messages: the mcp.json path. */
  source?: string;
  /** Where the values of `source` are: errors then name its line and column too. */
  positions?: JsonPositions;
  /** The path of the servers map in `source` (`["mcpServers"]`); set by `parseMcpConfig`. */
  within?: JsonPath;
}

const MAX_DELAY_MS = 2_147_483_647;
/** MCP's log levels (RFC 5424), least severe first. */
const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type McpLogLevel = (typeof LOG_LEVELS)[number];
const TOP_LEVEL_KEYS = ["mcpServers", "servers", "mcp"] as const;
/** Keys an mcp.json may carry for the toolkit (or an editor) beside its servers. */
const NOT_SERVERS = ["builtins", "agents", "$schema"];
const TYPES: Record<string, "stdio" | "http" | "sse"> = {
  stdio: "stdio",
  local: "stdio",
  http: "http",
  "streamable-http": "http",
  streamableHttp: "http",
  remote: "http",
  sse: "sse",
};

/**
 * Reads an mcp.json given as a path (relative to `baseDir`), raw JSON text, or an already parsed object,
 * and validates every entry. Errors are WeftError MCP_CONFIG_INVALID naming the file, server and field.
 */
export function loadMcpConfig(config: string | object, options: ParseOptions = {}): McpServerSpec[] {
  if (typeof config !== "string") return parseMcpConfig(config, options);
  const text = config.trim();
  if (text.startsWith("{")) return parseMcpConfig(parseJson(text, "the mcp config text"), options);
  const file = resolve(options.baseDir ?? process.cwd(), text);
  let content: string;
  try {
    content = readFileSync(file, "utf8");
  } catch (error) {
    throw new WeftError("MCP_CONFIG_INVALID", `cannot read the mcp config ${file}: ${errorMessage(error)}; check the path (relative paths start from ${options.baseDir ?? process.cwd()})`, { cause: error });
  }
  return parseMcpConfig(parseJson(content, file), { ...options, source: options.source ?? file, positions: jsonPositions(content) });
}

/**
 * Validates a parsed mcp.json: `{ "mcpServers" | "servers" | "mcp": { name: entry } }`, or the map of
 * entries itself (an inline `mcp:` map in weft.config.yaml). Entries come back in the file's order.
 */
export function parseMcpConfig(config: unknown, options: ParseOptions = {}): McpServerSpec[] {
  if (!isRecord(config)) {
    throw new WeftError("MCP_CONFIG_INVALID", `${located(options, [])}the mcp config must be a JSON object like {"mcpServers": {"name": {"command": "..."}}}`);
  }
  const key = TOP_LEVEL_KEYS.find((candidate) => candidate in config);
  const servers = key ? config[key] : withoutKeys(config, NOT_SERVERS);
  if (!isRecord(servers)) {
    throw new WeftError("MCP_CONFIG_INVALID", `${located(options, key ? [key] : [])}"${key}" must be an object mapping server names to their settings`);
  }
  const inFile = { ...options, within: key ? [key] : [] };
  const specs = Object.entries(servers).map(([name, entry]) => parseServerEntry(name, entry, inFile));
  for (const spec of specs) if (spec.enabled) resolveTransport(spec, options.env, inFile);
  return specs;
}

/** Validates one entry (common or array form); `${VAR}` references are checked by `resolveTransport`. */
export function parseServerEntry(name: string, entry: unknown, options: ParseOptions = {}): McpServerSpec {
  const fail = (field: string, problem: string): never => {
    throw new WeftError("MCP_CONFIG_INVALID", `${located(options, [name, ...fieldPath(field)])}mcp server "${name}": ${field} ${problem}`);
  };
  if (name.length === 0) fail("name", "must not be empty");
  if (!isRecord(entry)) return fail("entry", `must be an object with "command" (a local server) or "url" (a remote one)`);
  const read = new FieldReader(entry, fail);

  const typeName = read.string("type");
  const typed = typeName === undefined ? undefined : TYPES[typeName];
  if (typeName !== undefined && typed === undefined) {
    fail('"type"', `must be one of ${Object.keys(TYPES).join(", ")} (got "${typeName}")`);
  }
  const rawCommand = entry.command;
  const hasCommand = rawCommand !== undefined;
  const hasUrl = entry.url !== undefined;
  if (hasCommand && hasUrl) fail("entry", `has both "command" and "url": a server is either local (command) or remote (url)`);
  const kind = typed ?? (hasUrl ? "http" : "stdio");

  let transport: ServerTransport;
  if (kind === "stdio") {
    let command: string | undefined;
    let args = read.strings("args") ?? [];
    if (Array.isArray(rawCommand)) {
      const parts = read.strings("command")!;
      if (parts.length === 0) fail('"command"', "must not be an empty array");
      [command, ...args] = [...parts, ...args];
    } else {
      command = read.string("command");
    }
    if (!command) return fail('"command"', "is required for a local (stdio) server: the program to run, without a shell");
    const env = { ...read.stringMap("environment"), ...read.stringMap("env") };
    const cwd = read.string("cwd");
    const baseDir = options.baseDir ?? process.cwd();
    transport = {
      kind: "stdio",
      command,
      args,
      env,
      cwd: cwd === undefined ? baseDir : isAbsolute(cwd) ? cwd : resolve(baseDir, cwd),
      inheritEnv: read.strings("inheritEnv") ?? [],
    };
  } else {
    const url = read.string("url");
    if (!url) return fail('"url"', `is required for a remote (${kind}) server`);
    transport = { kind, url, headers: read.stringMap("headers") ?? {}, ...(entry.auth === undefined ? {} : { auth: parseAuth(entry.auth, fail) }) };
  }
  if (kind === "stdio" && entry.auth !== undefined) fail('"auth"', "is for remote (url) servers; give a local server its credentials in \"env\"");

  const enabled = read.boolean("enabled");
  const disabled = read.boolean("disabled");
  const tools = read.strings("tools");
  const toolTimeoutMs = read.positiveNumber("toolTimeout") ?? DEFAULT_TOOL_TIMEOUT_MS;
  return {
    name,
    enabled: enabled !== false && disabled !== true,
    timeoutMs: read.positiveNumber("timeout") ?? DEFAULT_CONNECT_TIMEOUT_MS,
    toolTimeoutMs,
    callTimeoutMs: read.positiveNumber("callTimeout") ?? Math.max(DEFAULT_CALL_TIMEOUT_MS, toolTimeoutMs),
    maxResultBytes: read.byteCount("maxResultBytes") ?? DEFAULT_MAX_RESULT_BYTES,
    logLevel: read.oneOf("logLevel", LOG_LEVELS) ?? "warning",
    ...(tools ? { tools: toolFilter(tools) } : {}),
    transport,
  };
}

/**
 * The transport with every `${VAR}` (and `${VAR:-default}`) in `command`, `args`, `env`, `url`, `headers` and `auth` expanded. An unset variable is
 * a MCP_CONFIG_INVALID error naming the server, the field and the variable, never any value.
 */
export function resolveTransport(spec: McpServerSpec, env: Record<string, string | undefined> = process.env, source: Pick<ParseOptions, "source" | "positions" | "within"> = {}): ServerTransport {
  const unset = (field: string, problem: string): never => {
    throw new WeftError("MCP_CONFIG_INVALID", `${located(source, [spec.name, ...fieldPath(field)])}mcp server "${spec.name}": ${field}: ${problem}`);
  };
  const expand = (field: string) => (text: string) => expandVariables(text, env, (problem) => unset(field, problem));
  const mapValues = (field: string, map: Record<string, string>) =>
    Object.fromEntries(Object.entries(map).map(([key, value]) => [key, expand(`${field}.${key}`)(value)]));
  const { transport } = spec;
  if (transport.kind === "stdio") {
    return { ...transport, command: expand('"command"')(transport.command), args: transport.args.map((arg, index) => expand(`args[${index}]`)(arg)), env: mapValues("env", transport.env) };
  }
  const url = expand('"url"')(transport.url);
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
    throw new WeftError("MCP_CONFIG_INVALID", `${located(source, [spec.name, "url"])}mcp server "${spec.name}": "url" must be an http:// or https:// URL (got "${transport.url}")`);
  }
  const auth = transport.auth && resolveAuth(transport.auth, env, unset);
  return { ...transport, url, headers: mapValues("headers", transport.headers), ...(auth ? { auth } : {}) };
}

/** `file:line:column: ` of the value at `path` (under the servers map), `file: ` without positions, nothing without a file. */
function located(options: Pick<ParseOptions, "source" | "positions" | "within">, path: JsonPath): string {
  if (!options.source) return "";
  const position = options.positions?.at([...(options.within ?? []), ...path]);
  return position ? `${options.source}:${position.line}:${position.column}: ` : `${options.source}: `;
}

/**
 * The key path an error's field label names, within the server's entry: `"auth.grant"` is auth, grant;
 * `args[0]` is args, 0; `entry` and `name` are the entry itself. A key with a dot in it resolves to its
 * parent, the nearest position there is.
 */
function fieldPath(field: string): JsonPath {
  if (field === "entry" || field === "name") return [];
  return [...field.replace(/"/g, "").matchAll(/\[(\d+)\]|([^.[\]]+)/g)].map((match) => (match[1] === undefined ? (match[2] ?? "") : Number(match[1])));
}

function toolFilter(names: string[]): ToolFilter {
  const allow = names.filter((name) => !name.startsWith("!"));
  const deny = names.filter((name) => name.startsWith("!")).map((name) => name.slice(1));
  return allow.length > 0 ? { allow, deny } : { deny };
}

/** Typed reads of an entry's optional fields; a wrong type fails with the field's name. */
class FieldReader {
  constructor(
    private readonly entry: Record<string, unknown>,
    private readonly fail: (field: string, problem: string) => never,
  ) {}

  string(field: string): string | undefined {
    const value = this.entry[field];
    if (value === undefined) return undefined;
    return typeof value === "string" ? value : this.fail(`"${field}"`, `must be a string`);
  }

  boolean(field: string): boolean | undefined {
    const value = this.entry[field];
    if (value === undefined) return undefined;
    return typeof value === "boolean" ? value : this.fail(`"${field}"`, `must be true or false`);
  }

  positiveNumber(field: string): number | undefined {
    const value = this.entry[field];
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return this.fail(`"${field}"`, `must be a positive number of milliseconds`);
    // Timers cannot wait longer; a bigger value would fire at once.
    return Math.min(value, MAX_DELAY_MS);
  }

  oneOf<T extends string>(field: string, choices: readonly T[]): T | undefined {
    const value = this.string(field);
    if (value === undefined) return undefined;
    return choices.find((choice) => choice === value) ?? this.fail(`"${field}"`, `must be one of ${choices.join(", ")} (got "${value}")`);
  }

  byteCount(field: string): number | undefined {
    const value = this.entry[field];
    if (value === undefined) return undefined;
    return typeof value === "number" && Number.isSafeInteger(value) && value >= 1024 ? value : this.fail(`"${field}"`, `must be a whole number of bytes, at least 1024`);
  }

  strings(field: string): string[] | undefined {
    const value = this.entry[field];
    if (value === undefined) return undefined;
    return Array.isArray(value) && value.every((item) => typeof item === "string") ? [...value] : this.fail(`"${field}"`, `must be an array of strings`);
  }

  stringMap(field: string): Record<string, string> | undefined {
    const value = this.entry[field];
    if (value === undefined) return undefined;
    if (!isRecord(value)) return this.fail(`"${field}"`, `must be an object of string values`);
    const map: Record<string, string> = {};
    for (const [key, item] of Object.entries(value)) map[key] = typeof item === "string" ? item : this.fail(`"${field}.${key}"`, `must be a string`);
    return map;
  }
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new WeftError("MCP_CONFIG_INVALID", `${what} is not valid JSON: ${errorMessage(error)}`, { cause: error });
  }
}

function withoutKeys(record: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));
}
