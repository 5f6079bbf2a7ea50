import type picomatch from "picomatch";

/**
 * picomatch, imported with the first glob: it is half of this pack's code (~40 KB), which a start that
 * only lists the tools (`weft tools`), or a session that never globs, need not load and compile.
 */
export async function loadPicomatch(): Promise<typeof picomatch> {
  return (await import("./picomatch-module.js")).default;
}
