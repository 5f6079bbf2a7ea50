import { markedSurvivors, newRunMarker, runMarkerVariable, sweepMarkedProcesses } from "./process-sweep.js";

/** The output cap when none is given: 1 MiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

export interface RunProcessOptions {
  /** The program (a path, or a name looked up on PATH). Never interpreted by a shell. */
  command: string;
  args?: string[];
  cwd?: string;
  /** The child's whole environment; the parent's when absent. */
  env?: NodeJS.ProcessEnv;
  /** Stops the process and its whole process group. */
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Past this many bytes of output the process group is stopped and the output marked truncated. */
  maxOutputBytes?: number;
}

export interface ProcessOutcome {
  /** The exit code, or 128 + the signal number when a signal ended it. */
  exitCode: number;
  /** stdout and stderr, merged in the order they were written. */
  output: string;
  truncated: boolean;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** Pids of processes it started that were still alive after being killed (empty when everything stopped). */
  survivors: number[];
  /**
   * Whether its output was still held open after everything found was killed: a descendant that
   * cleared its environment escaped the sweep and may still run.
   */
  pipesHeld: boolean;
}

// stdout and stderr share one pipe only when the child gets the same descriptor for both, which
// node's spawn cannot give; a POSIX sh that immediately `exec`s the program with `2>&1` can. The
// program and its arguments are passed as positional parameters, never parsed by the shell.
const MERGE_STDERR = 'exec "$0" "$@" 2>&1';

/**
 * How long the pipes may stay open once everything was killed: a descendant the sweep could not see
 * (one that cleared its environment) may hold them; the call returns anyway and the pipes are closed.
 */
const PIPE_GRACE_MS = 250;

/**
 * Runs a program with no stdin (it reads end of input at once), stdout and stderr merged in order,
 * output capped, and everything it started killed on abort, timeout, the cap, or when the program
 * exits: its process group, and on Linux every descendant that left the group (found by a marker in
 * its environment, see `sweepMarkedProcesses`). The call returns within a fraction of a second of the
 * limit whatever holds the pipes; `survivors` names what could not be killed.
 */
export async function runProcess(options: RunProcessOptions): Promise<ProcessOutcome> {
  const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const started = performance.now();
  const marker = newRunMarker();
  // child_process (with net and dgram) loads with the first command, not with every process that loads the sdk.
  const { spawn } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      resolve({ exitCode: 130, output: "", truncated: false, timedOut: false, aborted: true, durationMs: 0, survivors: [], pipesHeld: false });
      return;
    }
    const child = spawn("/bin/sh", ["-c", MERGE_STDERR, options.command, ...(options.args ?? [])], {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), [runMarkerVariable(marker)]: "1" },
      // stderr carries only the shell's own complaint when the program cannot be run (126, 127).
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let truncated = false;
    let timedOut = false;
    let aborted = false;
    let exitCode: number | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let settled = false;

    const killAll = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // ESRCH: the group is already gone.
      }
      sweepMarkedProcesses(marker);
    };
    const onAbort = () => {
      aborted = true;
      killAll();
    };
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => {
      timedOut = true;
      killAll();
    }, options.timeoutMs);
    options.signal?.addEventListener("abort", onAbort, { once: true });

    const collect = (chunk: Buffer) => {
      if (truncated || settled) return;
      const room = maxBytes - bytes;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        bytes = maxBytes;
        truncated = true;
        killAll();
        return;
      }
      chunks.push(chunk);
      bytes += chunk.length;
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", (error) => {
      cleanup();
      reject(error);
    });
    // The program is done when it exits; whatever it left running is killed so that the pipes close.
    child.on("exit", (code, signal) => {
      exitCode = code ?? 128 + signalNumber(signal);
      killAll();
      graceTimer = setTimeout(() => finish(true), PIPE_GRACE_MS);
    });
    child.on("close", () => finish(false));

    function finish(pipesHeld: boolean) {
      if (settled) return;
      settled = true;
      cleanup();
      child.stdout.destroy();
      child.stderr.destroy();
      const output = Buffer.concat(chunks).toString("utf8");
      void markedSurvivors(marker).then((survivors) =>
        resolve({ exitCode: exitCode ?? 137, output, truncated, timedOut, aborted, durationMs: performance.now() - started, survivors, pipesHeld }),
      );
    }

    function cleanup() {
      if (timer) clearTimeout(timer);
      if (graceTimer) clearTimeout(graceTimer);
      options.signal?.removeEventListener("abort", onAbort);
    }
  });
}

function signalNumber(signal: NodeJS.Signals | null): number {
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15, SIGPIPE: 13 };
  return (signal && numbers[signal]) ?? 0;
}

/**
 * The text a model reads for a finished process: `exit status: <n>` then the output in an
 * `<output>` element (`<output truncated="true">` when the cap cut it).
 */
export function formatProcessOutput(outcome: ProcessOutcome): string {
  const open = outcome.truncated ? '<output truncated="true">' : "<output>";
  const body = outcome.output.length === 0 || outcome.output.endsWith("\n") ? outcome.output : `${outcome.output}\n`;
  const warnings: string[] = [];
  if (outcome.survivors.length > 0) {
    warnings.push(`warning: ${outcome.survivors.length} process(es) it started could not be killed and may still run (pids ${outcome.survivors.join(", ")})`);
  }
  if (outcome.pipesHeld) warnings.push("warning: a process it started still held its output open and could not be found to be killed; it may still run");
  return [`exit status: ${outcome.exitCode}\n${open}\n${body}</output>`, ...warnings].join("\n");
}
