import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

/**
 * The absolute path of `command` as a shell would run it: a name is looked up in the PATH folders, a
 * path (anything with a `/`) is taken as is. Undefined when nothing executable is found, so a pack can
 * say which program is missing before it tries to start it.
 */
export function findExecutable(command: string, envPath: string | undefined = process.env.PATH): string | undefined {
  if (command.includes("/")) return isExecutableFile(command) ? path.resolve(command) : undefined;
  for (const folder of (envPath ?? "").split(path.delimiter)) {
    if (folder === "") continue;
    const candidate = path.join(folder, command);
    if (isExecutableFile(candidate)) return path.resolve(candidate);
  }
  return undefined;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
