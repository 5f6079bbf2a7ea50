import { readFileSync, readdirSync } from "node:fs";

/**
 * Every process the runner starts carries an environment variable `WEFT_RUN_<marker>=1`, unique to the
 * run. A descendant that left the process group (`setsid`, a daemon's double fork) still inherits it,
 * so a sweep of /proc finds it after its parent is gone and its ppid says nothing. The marker is in the
 * name, not the value, so a run inside a run (weft started by a weft command) keeps the outer marker too.
 */
export function runMarkerVariable(marker: string): string {
  return `WEFT_RUN_${marker}`;
}

/** A fresh marker value: 128 random bits, so no process of another run (or another program) can match. */
export function newRunMarker(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex");
}

let sweepable: boolean | undefined;

/**
 * Whether a sweep can see other processes' environments (Linux /proc). Asked at the first sweep, not
 * when the sdk loads: every process importing it would read its own environment for nothing.
 */
function canSweep(): boolean {
  if (sweepable === undefined) {
    try {
      readFileSync("/proc/self/environ");
      sweepable = true;
    } catch {
      sweepable = false;
    }
  }
  return sweepable;
}

// A sweep repeats until a round finds nothing new; a process forking in a loop cannot outrun stopped parents.
const MAX_ROUNDS = 50;

/**
 * Stops (SIGSTOP), then kills (SIGKILL) every live process whose environment carries the marker, and
 * returns how many it signalled. Stopping first freezes a fork loop, so a later round sees its children
 * before they can fork again. Linux only; elsewhere it does nothing.
 */
export function sweepMarkedProcesses(marker: string): number {
  if (!canSweep()) return 0;
  const needle = markerNeedle(marker);
  const found = new Set<number>();
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const fresh = markedProcesses(needle).filter((pid) => !found.has(pid));
    if (fresh.length === 0) break;
    for (const pid of fresh) {
      found.add(pid);
      signal(pid, "SIGSTOP");
    }
  }
  for (const pid of found) signal(pid, "SIGKILL");
  return found.size;
}

/**
 * The marked processes still alive after a sweep, once SIGKILL had `graceMs` to take effect: what could
 * not be killed (another user's setuid program, a process stuck in the kernel).
 */
export async function markedSurvivors(marker: string, graceMs = 200): Promise<number[]> {
  if (!canSweep()) return [];
  const needle = markerNeedle(marker);
  const deadline = performance.now() + graceMs;
  for (;;) {
    const alive = markedProcesses(needle);
    if (alive.length === 0 || performance.now() >= deadline) return alive;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function markerNeedle(marker: string): Buffer {
  return Buffer.from(`${runMarkerVariable(marker)}=1\0`);
}

function markedProcesses(needle: Buffer): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      // A zombie's environment reads empty: it is dead already and only waits to be reaped.
      if (readFileSync(`/proc/${name}/environ`).includes(needle)) pids.push(pid);
    } catch {
      // Gone since readdir, or not ours to read.
    }
  }
  return pids;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // ESRCH: it exited in between.
  }
}
