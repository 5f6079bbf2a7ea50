import { WeftError } from "@weft/sdk";
import { isPathName, pluginInstallName, resolvePluginUrl } from "../config/plugin-resolver.js";
import type { PluginSpec } from "./toolkit-options.js";

/**
 * Checks, before anything loads, that every plugin named by package is installed, so that several
 * missing ones (the four packs of the built-in tools, say) are reported together with one
 * `npm install` line rather than one per attempt. A single missing plugin is left to the loader,
 * whose error points at the config line that named it.
 */
export function assertPluginsInstalled(specs: PluginSpec[], dirs: string[]): void {
  const named = specs.flatMap((spec) => (!spec.plugin && spec.name && !isPathName(spec.name) ? [spec.name] : []));
  const missing = [...new Set(named)].filter((name) => dirs.every((dir) => resolvePluginUrl(name, dir) === undefined));
  if (missing.length < 2) return;
  const packages = missing.map(pluginInstallName);
  throw new WeftError(
    "PLUGIN_NOT_FOUND",
    `${missing.length} plugins are not installed: ${missing.join(", ")}. Install them: npm install ${packages.join(" ")}`,
  );
}
