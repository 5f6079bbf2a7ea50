import { fileURLToPath } from "node:url";
import { PROVIDER_PLUGINS, type AnyPlugin } from "@weft/sdk";
import { importPlugin, resolvePluginUrl } from "./config/plugin-resolver.js";

/** Where core itself is installed: a provider plugin beside it (a batteries-included install) counts. */
export const CORE_DIR = fileURLToPath(new URL(".", import.meta.url));

/**
 * The first-party plugin that registers `provider`, imported when it is installed (from `baseDir`, else
 * beside core), so `createModel("anthropic/…")` works with no plugin listed. `missing` names the exact
 * package when it is known but not installed; neither field when no first-party plugin provides it.
 */
export async function importProviderPlugin(provider: string, baseDir: string): Promise<{ plugin?: AnyPlugin; from?: string; missing?: string }> {
  const name = PROVIDER_PLUGINS[provider];
  if (!name) return {};
  const dir = [baseDir, CORE_DIR].find((candidate) => resolvePluginUrl(name, candidate) !== undefined);
  if (!dir) return { missing: name };
  return importPlugin(name, dir);
}
