import { WeftError } from "@weft/sdk";
import { isPathName, pluginInstallName, resolvePluginUrl } from "../config/plugin-resolver.js";
import type { PluginSpec } from "./toolkit-options.js";

/**
 * Checks, before anything loads, that every plugin named by package is installed, so that several
 * missing ones (the four packs of the built-in tools, say) are reported together with one
 * `npm install` line rather than one per attempt. A single missing plugin is left to the loader,
 * whose error points at the config line that named it. Returns where each installed one resolves
 * (from the first of `dirs` that has it), so the loader imports it without resolving it again.
 */
export function assertPluginsInstalled(specs: PluginSpec[], dirs: string[]): Map<string, string> {
  const named = specs.flatMap((spec) => (!spec.plugin && spec.name && !isPathName(spec.name) ? [spec.name] : []));
  const installed = new Map<string, string>();
  const missing: string[] = [];
  for (const name of new Set(named)) {
    const from = firstResolved(name, dirs);
    if (from) installed.set(name, from);
    else missing.push(name);
  }
  if (missing.length < 2) return installed;
  const packages = missing.map(pluginInstallName);
  throw new WeftError(
    "PLUGIN_NOT_FOUND",
    `${missing.length} plugins are not installed: ${missing.join(", ")}. Install them: npm install ${packages.join(" ")}`,
  );
}

function firstResolved(name: string, dirs: string[]): string | undefined {
  for (const dir of dirs) {
    const from = resolvePluginUrl(name, dir);
    if (from) return from;
  }
  return undefined;
}
