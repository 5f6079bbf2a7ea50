import { readFileSync } from "node:fs";

/** @weft/cli's version, from its package.json (read once, when asked). */
export function cliVersion(): string {
  return (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
}
