import { readFile } from "node:fs/promises";

/** Whether a process is running; a zombie (exited, not yet reaped by its parent) counts as gone. */
export async function isProcessAlive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // The state letter follows the command name, which is in parentheses and may contain spaces.
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Resolves true once `pid` is gone, or false if it is still running after `timeoutMs`. */
export async function waitForProcessExit(pid: number, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (await isProcessAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
