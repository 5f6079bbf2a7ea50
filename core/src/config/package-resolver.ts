import { readFileSync, realpathSync, statSync } from "node:fs";
import { isBuiltin } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * Node's resolution of a bare specifier (`name`, `@scope/name`, `name/sub/path`) for `import`, from a
 * folder: the package's own name (self-reference), then `node_modules` in that folder and each one
 * above it; `exports` with the conditions Node matches for `import` (nested condition objects,
 * fallback arrays, subpaths, `*` patterns), else `main` and `index.js`; the file's real path, as the
 * loader keys modules by it. It follows the algorithm of Node's ESM resolver (doc/api/esm.md,
 * "Resolution Algorithm Specification"), on our own: the JavaScript port of it weft used before cost
 * a tenth of `weft tools`'s start (its code, and the `assert` and `v8` built-ins it loads). Node 20
 * has no unflagged `import.meta.resolve(specifier, parent)`. Not read: `--conditions` flags given to
 * Node (a plugin is resolved as a default Node would).
 * Errors carry Node's codes: `ERR_MODULE_NOT_FOUND` and `ERR_PACKAGE_PATH_NOT_EXPORTED` mean "not
 * installed here", the others a package whose package.json is broken.
 */
export function resolvePackageSpecifier(specifier: string, fromDir: string): string {
  if (isBuiltin(specifier)) return specifier.startsWith("node:") ? specifier : `node:${specifier}`;
  // Both cases spelled out: V8 takes ~0.15 ms to compile a case-insensitive class, at every start.
  if (/^[a-zA-Z][a-zA-Z\d+.-]*:/.test(specifier)) return resolveUrl(specifier, fromDir);
  const name = packageName(specifier, fromDir);
  const subpath = `.${specifier.slice(name.length)}`;
  const own = selfResolved(name, subpath, fromDir);
  if (own) return own;
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const packageDir = path.join(dir, "node_modules", name);
    if (statSync(packageDir, { throwIfNoEntry: false })?.isDirectory()) return resolveInPackage(packageDir, subpath, fromDir);
    if (path.dirname(dir) === dir) break;
  }
  throw new ResolveError("ERR_MODULE_NOT_FOUND", `Cannot find package '${name}' from ${fromDir}`, true);
}

/** An error of resolution, with Node's code for it; `packageMissing` when no folder holds the package at all. */
export class ResolveError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly packageMissing = false,
  ) {
    super(message);
    this.name = "ResolveError";
  }
}

const CONDITIONS = new Set(["node", "import", "default", ...(process.features.require_module ? ["module-sync"] : [])]);


interface PackageJson {
  name?: unknown;
  main?: unknown;
  exports?: unknown;
}

/** The package a bare specifier names: its first segment, or its first two for a scoped name (`@scope/name/sub` → `@scope/name`). */
export function packageNameOf(specifier: string): string {
  const slash = specifier.indexOf("/");
  const end = specifier.startsWith("@") ? (slash === -1 ? -1 : specifier.indexOf("/", slash + 1)) : slash;
  return end === -1 ? specifier : specifier.slice(0, end);
}

function packageName(specifier: string, fromDir: string): string {
  const name = packageNameOf(specifier);
  if (name === "" || (specifier.startsWith("@") && !specifier.includes("/")) || /^\.|%|\\/.test(name)) {
    throw new ResolveError("ERR_INVALID_MODULE_SPECIFIER", `"${specifier}" is not a valid package name (from ${fromDir})`);
  }
  return name;
}

/** A package importing itself by its own name: the nearest package.json above `fromDir` names it and has `exports`. */
function selfResolved(name: string, subpath: string, fromDir: string): string | undefined {
  for (let dir = fromDir; path.basename(dir) !== "node_modules"; dir = path.dirname(dir)) {
    const manifest = readPackageJson(dir);
    if (manifest) return manifest.name === name && manifest.exports != null ? exportsResolved(dir, subpath, manifest.exports, fromDir) : undefined;
    if (path.dirname(dir) === dir) return undefined;
  }
  return undefined;
}

function resolveInPackage(packageDir: string, subpath: string, fromDir: string): string {
  const manifest = readPackageJson(packageDir) ?? {};
  if (manifest.exports != null) return exportsResolved(packageDir, subpath, manifest.exports, fromDir);
  if (subpath === ".") return finalized(legacyMain(packageDir, manifest.main), fromDir);
  return finalized(fileURLToPath(new URL(subpath, pathToFileURL(`${packageDir}/`))), fromDir);
}

function readPackageJson(dir: string): PackageJson | undefined {
  const file = path.join(dir, "package.json");
  // Most folders asked have none: a stat answers without the cost of a thrown ENOENT.
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return undefined;
  const text = readFileSync(file, "utf8");
  try {
    const manifest: unknown = JSON.parse(text);
    return manifest && typeof manifest === "object" ? (manifest as PackageJson) : {};
  } catch (error) {
    throw new ResolveError("ERR_INVALID_PACKAGE_CONFIG", `Invalid package config ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Without `exports`: `main` (as a file, with an extension added, or as a folder's index), else `index.js`. */
function legacyMain(packageDir: string, main: unknown): string {
  const manifestUrl = pathToFileURL(path.join(packageDir, "package.json"));
  const mains = typeof main === "string" ? ["", ".js", ".json", ".node", "/index.js", "/index.json", "/index.node"].map((extension) => `./${main}${extension}`) : [];
  const tries = [...mains, "./index.js", "./index.json", "./index.node"].map((file) => fileURLToPath(new URL(file, manifestUrl)));
  const found = tries.find((file) => statSync(file, { throwIfNoEntry: false })?.isFile());
  if (!found) {
    const named = typeof main === "string" ? `its "main" ${JSON.stringify(main)} does not exist, nor does index.js` : "no package.json \"main\", no index.js";
    throw new ResolveError("ERR_MODULE_NOT_FOUND", `${packageDir} has no main file (${named})`);
  }
  return found;
}

/** The file an `exports` field maps `subpath` to, or the error Node gives. */
function exportsResolved(packageDir: string, subpath: string, exports: unknown, fromDir: string): string {
  const manifestUrl = pathToFileURL(path.join(packageDir, "package.json"));
  const map = isConditionSugar(exports, manifestUrl) ? { ".": exports } : (exports as Record<string, unknown>);
  let target: URL | null | undefined;
  if (Object.hasOwn(map, subpath) && !subpath.includes("*") && !subpath.endsWith("/")) {
    target = resolveTarget(manifestUrl, map[subpath], undefined, subpath);
  } else {
    const key = bestPattern(Object.getOwnPropertyNames(map), subpath);
    if (key !== undefined) {
      const star = key.indexOf("*");
      target = resolveTarget(manifestUrl, map[key], subpath.slice(star, subpath.length - (key.length - star - 1)), key);
    }
  }
  if (!target) {
    const what = subpath === "." ? `No "exports" main defined in ${fileURLToPath(manifestUrl)}` : `Package subpath '${subpath}' is not defined by "exports" in ${fileURLToPath(manifestUrl)}`;
    throw new ResolveError("ERR_PACKAGE_PATH_NOT_EXPORTED", what);
  }
  return finalized(fileURLToPath(target), fromDir);
}

/** An `exports` that is the main entry itself (a string, an array, or conditions), not a map of subpaths. */
function isConditionSugar(exports: unknown, manifestUrl: URL): boolean {
  if (typeof exports === "string" || Array.isArray(exports)) return true;
  if (typeof exports !== "object" || exports === null) return false;
  const conditions = Object.getOwnPropertyNames(exports).map((key) => key === "" || !key.startsWith("."));
  if (conditions.some((condition) => condition !== conditions[0])) {
    throw new ResolveError(
      "ERR_INVALID_PACKAGE_CONFIG",
      `Invalid package config ${fileURLToPath(manifestUrl)}: "exports" cannot contain some keys starting with '.' and some not`,
    );
  }
  return conditions[0] ?? false;
}

/** The `*` key that matches `subpath` best: the longest prefix before the `*`, then the longest key. */
function bestPattern(keys: string[], subpath: string): string | undefined {
  let best: string | undefined;
  for (const key of keys) {
    const star = key.indexOf("*");
    if (star === -1 || star !== key.lastIndexOf("*") || !subpath.startsWith(key.slice(0, star))) continue;
    if (subpath.length < key.length || !subpath.endsWith(key.slice(star + 1))) continue;
    if (best === undefined || star > best.indexOf("*") || (star === best.indexOf("*") && key.length > best.length)) best = key;
  }
  return best;
}

/**
 * One `exports` target: a string (with `match` for a pattern's `*`), a fallback array, a condition
 * object (the first key Node matches), or null. undefined when no condition matched, null when the
 * package excludes the path.
 */
function resolveTarget(manifestUrl: URL, target: unknown, match: string | undefined, key: string): URL | null | undefined {
  if (typeof target === "string") return resolveTargetString(manifestUrl, target, match, key);
  if (Array.isArray(target)) {
    let failure: ResolveError | null | undefined;
    for (const fallback of target) {
      let resolved: URL | null | undefined;
      try {
        resolved = resolveTarget(manifestUrl, fallback, match, key);
      } catch (error) {
        if (!(error instanceof ResolveError) || error.code !== "ERR_INVALID_PACKAGE_TARGET") throw error;
        failure = error;
        continue;
      }
      if (resolved) return resolved;
      if (resolved === null) failure = null;
    }
    if (failure) throw failure;
    return failure;
  }
  if (typeof target === "object" && target !== null) {
    const conditions = Object.getOwnPropertyNames(target);
    if (conditions.some(isArrayIndex)) {
      throw new ResolveError("ERR_INVALID_PACKAGE_CONFIG", `Invalid package config ${fileURLToPath(manifestUrl)}: "exports" cannot contain numeric property keys`);
    }
    for (const condition of conditions) {
      if (!CONDITIONS.has(condition)) continue;
      const resolved = resolveTarget(manifestUrl, (target as Record<string, unknown>)[condition], match, key);
      if (resolved !== undefined) return resolved;
    }
    return undefined;
  }
  if (target === null) return null;
  throw invalidTarget(manifestUrl, target, key);
}

function isArrayIndex(key: string): boolean {
  const index = Number(key);
  return String(index) === key && index >= 0 && index < 0xffff_ffff;
}

function resolveTargetString(manifestUrl: URL, target: string, match: string | undefined, key: string): URL {
  if (!target.startsWith("./") || hasInvalidSegment(target.slice(2))) throw invalidTarget(manifestUrl, target, key);
  const resolved = new URL(target, manifestUrl);
  if (!resolved.pathname.startsWith(new URL(".", manifestUrl).pathname)) throw invalidTarget(manifestUrl, target, key);
  if (match === undefined) return resolved;
  if (hasInvalidSegment(match)) {
    throw new ResolveError("ERR_INVALID_MODULE_SPECIFIER", `"${key.replace("*", match)}" is not a valid subpath for the "exports" of ${fileURLToPath(manifestUrl)}`);
  }
  return new URL(resolved.href.replaceAll("*", match));
}

/**
 * Whether a path has a segment Node refuses in a target: `.`, `..` or `node_modules`, in any case,
 * percent-encoded or not. Node tests this with one case-insensitive regular expression, which takes
 * V8 about a millisecond to compile; split segments answer the same.
 */
function hasInvalidSegment(target: string): boolean {
  return target.split(/[\\/]/).some((segment) => {
    const plain = segment.includes("%") ? segment.replace(/%([\da-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) : segment;
    return plain === "." || plain === ".." || plain.toLowerCase() === "node_modules";
  });
}

function invalidTarget(manifestUrl: URL, target: unknown, key: string): ResolveError {
  const where = key === "." ? `main target ${JSON.stringify(target)}` : `target ${JSON.stringify(target)} for '${key}'`;
  const hint = typeof target === "string" && !target.startsWith("./") ? '; targets must start with "./"' : "";
  return new ResolveError("ERR_INVALID_PACKAGE_TARGET", `Invalid "exports" ${where} in ${fileURLToPath(manifestUrl)}${hint}`);
}

function resolveUrl(specifier: string, fromDir: string): string {
  const url = new URL(specifier);
  return url.protocol === "file:" ? finalized(fileURLToPath(url), fromDir) : url.href;
}

/** The file's URL by its real path, as Node's loader keys it; a folder or a missing file is an error. */
function finalized(file: string, fromDir: string): string {
  const stats = statSync(file, { throwIfNoEntry: false });
  if (stats?.isDirectory()) throw new ResolveError("ERR_UNSUPPORTED_DIR_IMPORT", `Directory import '${file}' is not supported resolving ES modules (from ${fromDir})`);
  if (!stats) throw new ResolveError("ERR_MODULE_NOT_FOUND", `Cannot find module '${file}' (from ${fromDir})`);
  return pathToFileURL(realpathSync.native(file)).href;
}
