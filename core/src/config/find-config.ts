import { existsSync } from "node:fs";
import path from "node:path";
import { WeftError } from "@weft/sdk";

export const CONFIG_FILE_NAMES = ["weft.config.yaml", "weft.config.yml"];

/** The project's config file: `explicit` when given, else the nearest one walking up from `cwd`. */
export function findConfigFile(cwd: string, explicit?: string): string {
  if (explicit) {
    const file = path.resolve(cwd, explicit);
    if (!existsSync(file)) throw new WeftError("CONFIG_NOT_FOUND", `config file not found: ${file}`);
    return file;
  }
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    for (const name of CONFIG_FILE_NAMES) {
      const file = path.join(dir, name);
      if (existsSync(file)) return file;
    }
    if (path.dirname(dir) === dir) break;
  }
  throw new WeftError(
    "CONFIG_NOT_FOUND",
    `no weft.config.yaml in ${path.resolve(cwd)} or any folder above it; create one with \`weft init\` or name one with --config`,
  );
}
