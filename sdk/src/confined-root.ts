import { constants, type Dirent, type Stats } from "node:fs";
import { lstat, mkdir, open, readdir, realpath, rename, rmdir, stat, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { anchoredPath, canAnchor } from "./anchored-path.js";
import { WeftError, errorCode, errorMessage } from "./errors.js";

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = constants;
const FOLDER_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
// O_NONBLOCK: opening a FIFO must never wait for a writer (it is refused right after, by fstat).
const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;

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
 *
 * `resolve` only checks a path; what the path names can change right after (another process swapping
 * a folder for a symlink). The operations below (`openFile`, `openFolder`, `readFolder`, `writeFile`,
 * `remove`) are race-free on Linux: they walk from the root one component at a time, each opened
 * with O_NOFOLLOW inside the directory already held (through /proc/self/fd), so a component swapped
 * for a symlink is refused rather than followed. They open regular files only (a FIFO, socket or
 * device is refused before it is opened), write through a temporary file renamed into place, and
 * refuse to write a file with more than one hard link. Reads through a hard link are not confined:
 * a hard link is the file itself, indistinguishable from any other name of it.
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
    const segments = splitSegments(relative);
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
        const code = errorCode(error);
        if (code === "ELOOP") throw new PathRefusedError(relative, "it is a symlink loop");
        const last = existing.at(-1);
        if (code !== "ENOENT" || last === undefined) throw error;
        missing.unshift(last);
        existing = existing.slice(0, -1);
      }
    }
  }

  /** A regular file, opened for reading, and its real path. */
  async openFile(relative: string): Promise<{ handle: FileHandle; path: string }> {
    const { folder, name, real } = await this.openParent(relative);
    try {
      const entry = canAnchor ? anchoredPath(folder.fd, name) : real;
      refuseNonRegular(relative, await lstat(entry));
      const handle = await open(entry, READ_FLAGS).catch((error: unknown) => rethrowOpenError(relative, error));
      try {
        refuseNonRegular(relative, await handle.stat());
      } catch (error) {
        await handle.close();
        throw error;
      }
      return { handle, path: real };
    } finally {
      await folder.close();
    }
  }

  /** A folder inside the root (the root itself for `""`), opened; `create` makes the missing ones. */
  async openFolder(relative: string, options: { create?: boolean } = {}): Promise<FileHandle> {
    return this.walk(relative, this.segmentsOf(await this.resolve(relative)), options.create ?? false);
  }

  /** A folder's entries and its real path, read through the opened folder. */
  async readFolder(relative: string): Promise<{ path: string; entries: Dirent[] }> {
    const real = await this.resolve(relative);
    const folder = await this.walk(relative, this.segmentsOf(real), false);
    try {
      return { path: real, entries: await readdir(canAnchor ? anchoredPath(folder.fd) : real, { withFileTypes: true }) };
    } finally {
      await folder.close();
    }
  }

  /**
   * Writes a whole file: into a temporary file in the (opened) target folder, then renamed over the
   * target, so a reader never sees half a file and the write cannot land anywhere else. Missing folders
   * are created. Returns the file's real path.
   */
  async writeFile(relative: string, data: string | Uint8Array): Promise<string> {
    const real = await this.resolve(relative);
    const segments = this.segmentsOf(real);
    const name = segments.pop();
    if (name === undefined) throw new PathRefusedError(relative, "it is the root folder, not a file");
    const folder = await this.walk(relative, segments, true);
    const at = (entry: string) => (canAnchor ? anchoredPath(folder.fd, entry) : path.join(path.dirname(real), entry));
    try {
      let mode = 0o666;
      try {
        const existing = await lstat(at(name));
        refuseNonRegular(relative, existing);
        if (existing.nlink > 1) {
          throw new PathRefusedError(relative, `it has ${existing.nlink} hard links; writing it would change every other name of the file, which may lie outside the root`);
        }
        mode = existing.mode & 0o7777;
      } catch (error) {
        if (errorCode(error) !== "ENOENT") throw error;
      }
      const temporary = `.weft-${Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex")}.tmp`;
      const handle = await open(at(temporary), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
      try {
        await handle.writeFile(data);
        await handle.chmod(mode);
      } finally {
        await handle.close();
      }
      await rename(at(temporary), at(name)).catch(async (error: unknown) => {
        await unlink(at(temporary)).catch(() => undefined);
        throw error;
      });
      return real;
    } finally {
      await folder.close();
    }
  }

  /**
   * Deletes a file, a symlink (not what it points to) or an empty folder; returns the entry's path.
   * The last component is the entry itself, never resolved through a symlink.
   */
  async remove(relative: string): Promise<string> {
    const segments = splitSegments(relative);
    const name = segments.pop();
    if (name === undefined || (await this.resolve(relative)) === this.path) throw new PathRefusedError(relative, "the root folder itself cannot be deleted");
    const parent = await this.resolve(segments.join("/"));
    const folder = await this.walk(relative, this.segmentsOf(parent), false);
    try {
      const entry = canAnchor ? anchoredPath(folder.fd, name) : path.join(parent, name);
      if ((await lstat(entry)).isDirectory()) await rmdir(entry);
      else await unlink(entry);
      return path.join(parent, name);
    } finally {
      await folder.close();
    }
  }

  /** The parent folder of `relative`, opened, and the (real) name of its last component. */
  private async openParent(relative: string): Promise<{ folder: FileHandle; name: string; real: string }> {
    const real = await this.resolve(relative);
    const segments = this.segmentsOf(real);
    const name = segments.pop();
    if (name === undefined) throw Object.assign(new Error(`${relative} is a folder`), { code: "EISDIR" });
    return { folder: await this.walk(relative, segments, false), name, real };
  }

  /** Opens each of `segments` (a real path below the root, no symlinks) inside the one before, never following a symlink. */
  private async walk(relative: string, segments: string[], create: boolean): Promise<FileHandle> {
    if (!canAnchor) {
      const real = path.join(this.path, ...segments);
      if (create) await mkdir(real, { recursive: true });
      return open(real, O_RDONLY | O_DIRECTORY);
    }
    let folder = await open(this.path, O_RDONLY | O_DIRECTORY);
    for (const segment of segments) {
      const next = anchoredPath(folder.fd, segment);
      try {
        if (create) await mkdir(next).catch((error: unknown) => (errorCode(error) === "EEXIST" ? undefined : Promise.reject(error)));
        const opened = await open(next, FOLDER_FLAGS).catch((error: unknown) => rethrowOpenError(relative, error));
        await folder.close();
        folder = opened;
      } catch (error) {
        await folder.close();
        throw error;
      }
    }
    return folder;
  }

  private segmentsOf(real: string): string[] {
    const inside = path.relative(this.path, real);
    return inside === "" ? [] : inside.split(path.sep);
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

function splitSegments(relative: string): string[] {
  return relative.split(/[\\/]+/).filter((segment) => segment !== "" && segment !== ".");
}

/** Refuses what is not a regular file, by what lstat/fstat says, before (or right after) it is opened. */
function refuseNonRegular(relative: string, info: Stats): void {
  if (info.isFile()) return;
  if (info.isDirectory()) throw Object.assign(new Error(`${relative} is a folder`), { code: "EISDIR" });
  if (info.isSymbolicLink()) throw new PathRefusedError(relative, "it changed while being opened (it became a symlink); try again");
  const kind = info.isFIFO() ? "a named pipe (FIFO)" : info.isSocket() ? "a socket" : info.isCharacterDevice() || info.isBlockDevice() ? "a device" : "not a regular file";
  throw new PathRefusedError(relative, `it is ${kind}; only regular files can be read or written`);
}

/** A symlink met where the checked path had none means the path changed under us. */
function rethrowOpenError(relative: string, error: unknown): never {
  const code = errorCode(error);
  if (code === "ELOOP") throw new PathRefusedError(relative, "it changed while being opened (a part of it became a symlink); try again");
  if (code === "ENXIO") throw new PathRefusedError(relative, "it is a socket; only regular files can be read or written");
  throw error;
}
