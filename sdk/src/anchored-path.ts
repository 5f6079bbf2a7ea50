import { existsSync } from "node:fs";

/**
 * Linux names every open descriptor `/proc/self/fd/<n>`, and a path through it is looked up in the
 * directory the descriptor holds, whatever has since been renamed or replaced along the way. This is
 * what makes the confined root race-free without openat(2), which node does not expose.
 */
const FD_FOLDER = "/proc/self/fd";

/** Whether descriptor paths are available (Linux). Elsewhere the confined root checks paths, then opens them. */
export const canAnchor = existsSync(`${FD_FOLDER}/0`);

/** A path to `name` looked up inside the open directory `fd`, or the directory itself. */
export function anchoredPath(fd: number, name?: string): string {
  return name === undefined ? `${FD_FOLDER}/${fd}` : `${FD_FOLDER}/${fd}/${name}`;
}
