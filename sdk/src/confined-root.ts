import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { WeftError, errorMessage } from "./errors.js";

/** Why a path was refused; the message is written for the model to read. */
export class PathRefusedError extends WeftError {
  constructor(
    readonly requested: string,
    reason: string,
  ) {
    super("PATH_REFUSED", `path refused: ${requested}: ${reason}`);
  }
}

/**
 * One folder that every path is relative to. `..` segments and absolute paths are refused outright;
 * symlinks are resolved and refused when they lead outside the folder, never followed out of it.
 */
export class ConfinedRoot {
  private constructor(
    /** The root's real absolute path. */
    readonly path: string,
  ) {}

  /** Opens an existing folder; a missing one is an error (a root is never created). */
  static async open(folder: string): Promise<ConfinedRoot> {
    let real: string;
    try {
      real = await realpath(folder);
    } catch (error) {
      throw new WeftError("PATH_REFUSED", `root folder ${folder} cannot be used: ${errorMessage(error)}`, { cause: error });
    }
    if (!(await stat(real)).isDirectory()) throw new WeftError("PATH_REFUSED", `root ${folder} is not a folder`);
    return new ConfinedRoot(real);
  }

  /**
   * The real absolute path of `relative` inside the root. The target need not exist (a file about to be
   * written); its deepest existing ancestor is resolved through symlinks and must stay inside.
   */
  async resolve(relative: string): Promise<string> {
    if (relative.includes("\0")) throw new PathRefusedError(relative, "it contains a NUL byte");
    if (path.isAbsolute(relative)) throw new PathRefusedError(relative, "absolute paths are not allowed; give a path relative to the root");
    const segments = relative.split(/[\\/]+/).filter((segment) => segment !== "" && segment !== ".");
    if (segments.includes("..")) throw new PathRefusedError(relative, '".." is not allowed; give a path inside the root');
    const missing: string[] = [];
    let existing = segments;
    for (;;) {
      const candidate = path.join(this.path, ...existing);
      try {
        const real = await realpath(candidate);
        const resolved = path.join(real, ...missing);
        if (!this.contains(resolved)) throw new PathRefusedError(relative, "it leads outside the root through a symlink");
        return resolved;
      } catch (error) {
        if (error instanceof PathRefusedError) throw error;
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ELOOP") throw new PathRefusedError(relative, "it is a symlink loop");
        const last = existing.at(-1);
        if (code !== "ENOENT" || last === undefined) throw error;
        missing.unshift(last);
        existing = existing.slice(0, -1);
      }
    }
  }

  /** Whether an absolute path lies inside the root (or is the root). */
  contains(absolute: string): boolean {
    const inside = path.relative(this.path, absolute);
    return inside === "" || (inside !== ".." && !inside.startsWith(`..${path.sep}`) && !path.isAbsolute(inside));
  }

  /** `absolute` relative to the root, with `/` separators. */
  relative(absolute: string): string {
    return path.relative(this.path, absolute).split(path.sep).join("/");
  }
}
