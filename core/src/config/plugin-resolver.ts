import path from "node:path";
import { pathToFileURL } from "node:url";
import { WeftError, errorCode, errorMessage, type AnyPlugin } from "@weft/sdk";
import { ResolveError, packageNameOf, resolvePackageSpecifier } from "./package-resolver.js";

/**
 * The module names a plugin name may mean, in the order they are tried. A short name `x` tries
 * `@weft/plugin-x`, then `weft-plugin-x`, then `x`; a scoped or path name means only itself.
 */
export function pluginCandidates(name: string): string[] {
  if (isPathName(name) || name.startsWith("@") || name.includes("/")) return [name];
  return [`@weft/plugin-${name}`, `weft-plugin-${name}`, name];
}

export interface ResolvedPlugin {
  plugin: AnyPlugin;
  /** The module's file URL. */
  from: string;
}

/**
 * Resolves and imports a plugin the way Node would from `fromDir` (the config file's folder), so a
 * project's own node_modules decide what is installed, wherever weft itself runs from.
 */
export async function importPlugin(name: string, fromDir: string): Promise<ResolvedPlugin> {
  const candidates = pluginCandidates(name);
  const { from, unusable } = locatePlugin(name, fromDir);
  if (!from) {
    const install = pluginInstallName(name);
    const why = unusable.length > 0 ? `; installed but not importable: ${unusable.join("; ")}` : "";
    throw new WeftError("PLUGIN_NOT_FOUND", `plugin "${name}" not found from ${fromDir}; tried ${candidates.join(", ")}${why}. Install it: npm install ${install}`);
  }
  return importPluginFrom(name, from);
}

/** Imports the plugin `name` resolved to (a file URL from `resolvePluginUrl`). */
export async function importPluginFrom(name: string, from: string): Promise<ResolvedPlugin> {
  let module: { default?: AnyPlugin };
  try {
    module = await import(from);
  } catch (error) {
    const hint = isNotFound(error) && isPathName(name) ? "the file does not exist" : errorMessage(error);
    throw new WeftError(isNotFound(error) ? "PLUGIN_NOT_FOUND" : "PLUGIN_INVALID", `plugin "${name}" failed to load from ${from}: ${hint}`, { cause: error });
  }
  return { plugin: module.default as AnyPlugin, from };
}

/** The file URL `name` resolves to from `fromDir` (its first installed candidate), or undefined when none is installed. */
export function resolvePluginUrl(name: string, fromDir: string): string | undefined {
  return locatePlugin(name, fromDir).from;
}

/** The first candidate that resolves, and why each installed one before it could not be imported. */
function locatePlugin(name: string, fromDir: string): { from?: string; unusable: string[] } {
  const unusable: string[] = [];
  for (const candidate of pluginCandidates(name)) {
    try {
      return { from: isPathName(candidate) ? pathToFileURL(path.resolve(fromDir, candidate)).href : resolvePackageSpecifier(candidate, fromDir), unusable };
    } catch (error) {
      if (!isNotFound(error)) throw new WeftError("PLUGIN_INVALID", `plugin "${name}" (${candidate}) cannot be resolved: ${errorMessage(error)}`, { cause: error });
      if (!(error instanceof ResolveError && error.packageMissing)) unusable.push(`${candidate} (${errorMessage(error)})`);
    }
  }
  return { unusable };
}

/** The package `npm install` needs for `name`: its first candidate that is a package name, without a subpath. */
export function pluginInstallName(name: string): string {
  const candidate = pluginCandidates(name).find((candidate) => !isPathName(candidate));
  return candidate === undefined ? name : packageNameOf(candidate);
}

export function isPathName(name: string): boolean {
  return name.startsWith("./") || name.startsWith("../") || path.isAbsolute(name);
}

function isNotFound(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ERR_MODULE_NOT_FOUND" || code === "ERR_PACKAGE_PATH_NOT_EXPORTED" || code === "ENOENT";
}
