import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/** The bin as npm links it (it runs the build in dist/; the test command builds before it tests). */
export const WEFT_BIN = fileURLToPath(new URL("../../bin/weft.js", import.meta.url));

/** The workspace's node_modules, where the real MCP servers and the weft packages are installed. */
export const WORKSPACE_MODULES = fileURLToPath(new URL("../../../node_modules/", import.meta.url));

export interface WeftOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

const execFileAsync = promisify(execFile);

/** Runs `weft <args>` in `cwd` as a child process, with a clean environment (keeping the suite's WEFT_TRUST_ALL and WEFT_CACHE_DIR) plus `env`. */
export async function weft(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<WeftOutcome> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [WEFT_BIN, ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, WEFT_TRUST_ALL: process.env.WEFT_TRUST_ALL, WEFT_CACHE_DIR: process.env.WEFT_CACHE_DIR, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as WeftOutcome;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
