import type { ConfigPath } from "./config-document.js";

/** A JSON pointer (`/plugins/2/root`) as a config path. */
export function pointerToPath(pointer: string): ConfigPath {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}
