import { stat } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_MAX_OUTPUT_BYTES, deadlinePassed, defineTool, errorMessage, errorResult, formatProcessOutput, runProcess, withinDeadline, type Tool, Type } from "@weft/sdk";

/** Bounds of `timeout_ms`; a call outside them is refused before anything runs. */
export const MAX_TIMEOUT_MS = 600_000;
export const DEFAULT_TIMEOUT_MS = 120_000;

export interface ShellToolOptions {
  /** Where commands run when a call names no workdir; the program's working directory (at call time) by default. */
  cwd?: string;
  /** `timeout_ms` when a call gives none; 120000 by default. */
  timeoutMs?: number;
  /** Output past this many bytes is cut and the command stopped; 1 MiB by default. */
  maxOutputBytes?: number;
  /** The commands' environment; the program's by default. ENV and BASH_ENV are always removed. */
  env?: NodeJS.ProcessEnv;
}

/** How one command tool runs its command line: which shell, with which arguments before `-c`. */
export interface ShellSpec {
  name: string;
  /** The shell as the description names it, e.g. `/bin/sh -c`. */
  label: string;
  program: string;
  /** Arguments before the command line, ending with `-c`. */
  args: string[];
}

const input = Type.Object({
  command: Type.String({ description: "The command line to run" }),
  workdir: Type.Optional(Type.String({ description: "Folder to run in: absolute, or relative to the working directory" })),
  timeout_ms: Type.Optional(Type.Integer({ description: `Time limit in milliseconds, 1 to ${MAX_TIMEOUT_MS} (default ${DEFAULT_TIMEOUT_MS})` })),
});

/**
 * A tool that runs a command line through a shell: the one implementation behind `shell_run` and
 * `bash`, which differ only in their name, shell and description.
 */
export function commandTool(spec: ShellSpec, options: ShellToolOptions = {}): Tool<{ command: string; workdir?: string; timeout_ms?: number }> {
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return defineTool({
    name: spec.name,
    description:
      `Run a command line with ${spec.label} and get back its exit status and output (stdout and stderr merged in the order written, cut at ${byteSize(maxOutputBytes)}). ` +
      "The command gets no stdin: a program that waits for input reads end of file at once, so give input through arguments, files or pipes. " +
      `It runs in the working directory unless workdir names another folder, and it is stopped, with everything it started, after timeout_ms (default ${defaultTimeoutMs}, at most ${MAX_TIMEOUT_MS}). ` +
      "Prefer the file tools to read, write and edit files.",
    input,
    timeoutMs: MAX_TIMEOUT_MS,
    async execute({ command, workdir, timeout_ms }, ctx) {
      const timeoutMs = timeout_ms ?? defaultTimeoutMs;
      if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
        return errorResult(`invalid timeout: ${timeoutMs} ms, expected 1 to ${MAX_TIMEOUT_MS}`);
      }
      const base = options.cwd ?? process.cwd();
      const cwd = workdir === undefined ? base : path.resolve(base, workdir);
      const problem = await folderProblem(cwd);
      if (problem) return errorResult(`cannot run in ${workdir ?? cwd}: ${problem}`);
      let outcome: Awaited<ReturnType<typeof runProcess>>;
      try {
        outcome = await runProcess({
          command: spec.program,
          args: [...spec.args, command],
          cwd,
          env: withoutStartupFiles(options.env ?? process.env),
          signal: ctx.signal,
          timeoutMs: withinDeadline(timeoutMs, ctx),
          maxOutputBytes,
        });
      } catch (error) {
        return errorResult(`${spec.name} could not start ${spec.program}: ${errorMessage(error)}`);
      }
      // The runner's own limit or the execute path's deadline, whichever came first, is the same timeout.
      const timedOut = outcome.timedOut || deadlinePassed(ctx.signal);
      const metadata = { exitCode: outcome.exitCode, truncated: outcome.truncated, timedOut, durationMs: outcome.durationMs };
      if (timedOut) {
        return errorResult(`timed out after ${timeoutMs} ms, retry with a larger timeout_ms if the command needs longer\n${formatProcessOutput(outcome)}`, metadata);
      }
      if (outcome.aborted) return errorResult(`${spec.name} was aborted\n${formatProcessOutput(outcome)}`, metadata);
      // A non-zero exit is an ordinary answer: the model reads the status and decides.
      return { output: formatProcessOutput(outcome), metadata };
    },
  });
}

async function folderProblem(folder: string): Promise<string | undefined> {
  try {
    return (await stat(folder)).isDirectory() ? undefined : "it is not a folder";
  } catch {
    return "no such folder";
  }
}

// sh reads $ENV and bash reads $BASH_ENV before running a -c command line; neither may run a startup file.
function withoutStartupFiles(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ENV: _env, BASH_ENV: _bashEnv, ...rest } = env;
  return rest;
}

function byteSize(bytes: number): string {
  const mib = 1024 * 1024;
  return bytes % mib === 0 ? `${bytes / mib} MiB` : `${bytes} bytes`;
}
