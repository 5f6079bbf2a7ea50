/**
 * The process groups of running stdio servers. Each server leads its own group (so closing it stops what
 * it spawned), which also means a terminal's Ctrl-C no longer reaches it: when the host dies of a signal
 * or exits without closing its kernel, the groups are killed here instead of being left behind.
 */
const groups = new Set<number>();
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
let installed = false;

export function trackGroup(pid: number): void {
  groups.add(pid);
  if (installed) return;
  installed = true;
  process.on("exit", killAll);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

export function untrackGroup(pid: number): void {
  groups.delete(pid);
}

export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the whole group is already gone.
  }
}

function killAll(): void {
  for (const pid of groups) killGroup(pid, "SIGKILL");
  groups.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  // A host that handles the signal itself (a chat aborting a turn on Ctrl-C) decides what happens.
  if (process.listenerCount(signal) > 1) return;
  killAll();
  for (const name of SIGNALS) process.removeListener(name, onSignal);
  process.removeListener("exit", killAll);
  installed = false;
  // Nobody else listens: die of the signal as the host would have without us.
  process.kill(process.pid, signal);
}
