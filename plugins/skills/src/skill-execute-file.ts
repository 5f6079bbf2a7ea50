import type { FileHandle } from "node:fs/promises";
import { deadlinePassed, defineTool, errorResult, formatProcessOutput, runProcess, Type, type Tool, type ToolContext, type ToolResult, type ToolSource, withinDeadline } from "@weft/sdk";
import type { FolderSkill } from "./skill.js";
import { fileFailure, lookUpFile, lookUpSkill, type SkillLookup } from "./skill-lookup.js";

/** A script's time limit when none is configured: 2 minutes. */
export const DEFAULT_SKILL_TIMEOUT_MS = 120_000;

const input = Type.Object({
  skill_name: Type.String({ description: "The skill's name" }),
  path: Type.String({ description: "The file's path relative to the skill folder, as skill_load lists it" }),
  args: Type.Optional(Type.Array(Type.String(), { description: "Arguments passed to the program as they are (no shell)" })),
});

export function skillExecuteFileTool(lookup: SkillLookup, source: ToolSource, timeoutMs: number): Tool {
  return defineTool({
    name: "skill_execute_file",
    description:
      "Run an executable file a skill ships (a script with a shebang line), by its path relative to the skill folder, with optional arguments. It runs from the skill folder without a shell and without input; the result is its exit status and its output (stdout and stderr together).",
    input,
    source,
    timeoutMs,
    execute: async ({ skill_name, path, args }, ctx) => {
      const skill = await lookUpSkill(lookup, skill_name);
      if (!skill.ok) return skill.result;
      const file = lookUpFile(skill.value, path);
      if (!file.ok) return file.result;
      if (skill.value.kind === "data") {
        return errorResult(`skill ${skill.value.name} is given as data, so its files cannot run; read them with skill_load_file`);
      }
      return run(skill.value, file.value, args ?? [], ctx, timeoutMs);
    },
  });
}

async function run(skill: FolderSkill, file: string, args: string[], ctx: ToolContext, timeoutMs: number): Promise<ToolResult> {
  let target: string;
  try {
    const opened = await skill.root.openFile(file);
    target = opened.path;
    const refusal = await notRunnable(file, opened.handle);
    if (refusal) return errorResult(refusal);
  } catch (error) {
    return fileFailure("run", file, error);
  }
  let outcome: Awaited<ReturnType<typeof runProcess>>;
  try {
    // Named relative to the skill folder, its working directory, so `$0` does not reveal where it is.
    outcome = await runProcess({ command: `./${skill.root.relative(target)}`, args, cwd: skill.root.path, signal: ctx.signal, timeoutMs: withinDeadline(timeoutMs, ctx) });
  } catch (error) {
    return fileFailure("run", file, error);
  }
  // The runner's own limit or the execute path's deadline, whichever came first, is the same timeout.
  const timedOut = outcome.timedOut || deadlinePassed(ctx.signal);
  const metadata = { exitCode: outcome.exitCode, truncated: outcome.truncated, timedOut };
  if (timedOut) {
    const partial = outcome.output ? `\n${formatProcessOutput(outcome).replace(/^exit status: .*\n/, "")}` : "";
    return errorResult(`timed out after ${timeoutMs} ms${partial}`, metadata);
  }
  if (outcome.aborted) return errorResult(`${file} was stopped: the call was aborted`, metadata);
  return { output: formatProcessOutput(outcome), metadata };
}

/**
 * Why a file cannot run directly, or undefined when it can. No interpreter is guessed from the
 * extension: the file must say how it runs, with its execute bit and a shebang (or be a binary).
 */
async function notRunnable(file: string, handle: FileHandle): Promise<string | undefined> {
  try {
    const info = await handle.stat();
    if ((info.mode & 0o111) === 0) {
      return `cannot run ${file}: it has no execute bit. A skill's file runs directly, so it needs its own execute bit and a shebang line (#!/bin/sh, #!/usr/bin/env node, ...); read it with skill_load_file instead`;
    }
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    if (head.subarray(0, 2).toString("latin1") !== "#!" && head.toString("latin1") !== "\x7fELF") {
      return `cannot run ${file}: it has no shebang line. A skill's file runs directly, so it must start with one (#!/bin/sh, #!/usr/bin/env node, ...); read it with skill_load_file instead`;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}
