import { readFileSync } from "node:fs";

/** @weft/cli's version, from its package.json (read once, when asked). */
export function cliVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  // Checked by hand: `weft --version` starts without loading the sdk.
  if (typeof manifest === "object" && manifest !== null && "version" in manifest && typeof manifest.version === "string") return manifest.version;
  throw new Error("@weft/cli's package.json names no version");
}
