import path from "node:path";
import { readFile, stat } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryLogger, type Kernel, type Scope } from "@weft/sdk";
import { createTestKernel, isProcessAlive, waitForProcessExit } from "@weft/testing";
import { createSkillCollection } from "./skill-collection.js";
import { tempFolder, writeSkill, type TempFolder } from "./test-fixtures/skill-folders.js";

const EXEC = 0o755;
const TIMEOUT_MS = 1500;

describe("skill_execute_file", () => {
  let temp: TempFolder;
  let kernel: Kernel;
  let scope: Scope;
  beforeAll(async () => {
    temp = await tempFolder();
    await writeSkill(path.join(temp.path, "skills/runner"), {
      files: {
        "scripts/report.sh": { text: '#!/bin/bash\necho "bash: $1 | $2"\necho "to stderr" >&2\necho "after"\nexit 3\n', mode: EXEC },
        "scripts/where.sh": { text: '#!/bin/sh\necho "$0 in $(basename "$PWD")"\n', mode: EXEC },
        "scripts/args.js": {
          text: '#!/usr/bin/env node\nconsole.log(JSON.stringify(process.argv.slice(2)));\nconsole.error("node stderr");\n',
          mode: EXEC,
        },
        "scripts/plain.sh": { text: "#!/bin/sh\necho should not run\n", mode: 0o644 },
        "scripts/no-shebang.sh": { text: "echo guessed an interpreter\n", mode: EXEC },
        "scripts/flood.js": { text: '#!/usr/bin/env node\nprocess.stdout.write("x".repeat(2 * 1024 * 1024));\n', mode: EXEC },
        "scripts/sleepy.sh": { text: "#!/bin/sh\necho started\nsleep 60\necho never\n", mode: EXEC },
        "scripts/orphan.sh": { text: '#!/bin/sh\nsleep 60 &\necho $! > "$1"\necho parent done\n', mode: EXEC },
        "scripts/escape.sh": { text: '#!/bin/sh\nsetsid sleep 60 &\necho $! > "$1"\necho started\nsleep 60\n', mode: EXEC },
        "scripts/stdin.sh": { text: '#!/bin/sh\nif read line; then echo "got: $line"; else echo "end of input"; fi\n', mode: EXEC },
        "scripts/wait.sh": { text: '#!/bin/sh\nsleep 60 &\necho $! > "$1.child"\necho $$ > "$1"\nwait\n', mode: EXEC },
      },
    });
    kernel = await createTestKernel([], { logger: memoryLogger() });
    scope = kernel.scope("session");
    await createSkillCollection({
      skillsDir: path.join(temp.path, "skills"),
      skills: [{ name: "data-skill", description: "Data", content: "Body", files: { "run.sh": "#!/bin/sh\necho hi\n" } }],
      logger: memoryLogger(),
    }).register(scope);
  });
  afterAll(async () => {
    await kernel.close();
    await temp.remove();
  });

  const run = (file: string, args?: string[], signal?: AbortSignal, skill = "runner") =>
    kernel.execute({ name: "skill_execute_file", arguments: { skill_name: skill, path: file, ...(args ? { args } : {}) } }, { signal });

  it("runs a bash script with its arguments and returns the exit status and merged output; a non-zero exit is not an error", async () => {
    expect(await run("scripts/report.sh", ["one two", "$HOME"])).toEqual({
      output: "exit status: 3\n<output>\nbash: one two | $HOME\nto stderr\nafter\n</output>",
      metadata: { exitCode: 3, truncated: false, timedOut: false },
    });
  });

  it("runs a node script through its shebang, from the skill folder, named relative to it", async () => {
    expect((await run("scripts/args.js", ["a", "b c"])).output).toBe('exit status: 0\n<output>\n["a","b c"]\nnode stderr\n</output>');
    expect((await run("scripts/where.sh")).output).toBe("exit status: 0\n<output>\n./scripts/where.sh in runner\n</output>");
  });

  it("refuses a file without an execute bit or without a shebang, and never runs it", async () => {
    expect(await run("scripts/plain.sh")).toEqual({
      output:
        "cannot run scripts/plain.sh: it has no execute bit. A skill's file runs directly, so it needs its own execute bit and a shebang line (#!/bin/sh, #!/usr/bin/env node, ...); read it with skill_load_file instead",
      isError: true,
    });
    expect(await run("scripts/no-shebang.sh")).toEqual({
      output:
        "cannot run scripts/no-shebang.sh: it has no shebang line. A skill's file runs directly, so it must start with one (#!/bin/sh, #!/usr/bin/env node, ...); read it with skill_load_file instead",
      isError: true,
    });
  });

  it("caps output at 1 MiB, marks it truncated and stops the program", async () => {
    const result = await run("scripts/flood.js");
    const match = /^exit status: (\d+)\n<output truncated="true">\n(x*)\n<\/output>$/.exec(result.output);
    expect(match?.[2]?.length).toBe(1024 * 1024);
    expect(result.metadata).toMatchObject({ truncated: true, timedOut: false });
    expect(result.isError).toBeUndefined();
  });

  it("stops a script that runs past its time limit and says so, with the output so far", async () => {
    const limited = kernel.scope("limited");
    await createSkillCollection({ skillsDir: path.join(temp.path, "skills"), timeoutMs: TIMEOUT_MS, logger: memoryLogger() }).register(limited);
    try {
      expect(await run("scripts/sleepy.sh")).toEqual({
        output: `timed out after ${TIMEOUT_MS} ms\n<output>\nstarted\n</output>`,
        isError: true,
        metadata: { exitCode: 137, truncated: false, timedOut: true },
      });
    } finally {
      await limited.dispose();
    }
  });

  it("returns at its time limit and kills a child that left the process group (setsid)", async () => {
    const limited = kernel.scope("escaping");
    await createSkillCollection({ skillsDir: path.join(temp.path, "skills"), timeoutMs: TIMEOUT_MS, logger: memoryLogger() }).register(limited);
    const pidFile = path.join(temp.path, "escaped.pid");
    try {
      const started = performance.now();
      expect(await run("scripts/escape.sh", [pidFile])).toEqual({
        output: `timed out after ${TIMEOUT_MS} ms\n<output>\nstarted\n</output>`,
        isError: true,
        metadata: { exitCode: 137, truncated: false, timedOut: true },
      });
      // The hardening contract: back within 1 s of the limit, not when the escaped sleep ends.
      expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 1000);
      expect(await isProcessAlive(Number(await readFile(pidFile, "utf8")))).toBe(false);
    } finally {
      await limited.dispose();
    }
  });

  it("kills a child that outlives the script", async () => {
    const pidFile = path.join(temp.path, "orphan.pid");
    expect((await run("scripts/orphan.sh", [pidFile])).output).toBe("exit status: 0\n<output>\nparent done\n</output>");
    expect(await waitForProcessExit(Number(await readFile(pidFile, "utf8")))).toBe(true);
  });

  it("gives the script no stdin: it reads end of input at once", async () => {
    expect((await run("scripts/stdin.sh")).output).toBe("exit status: 0\n<output>\nend of input\n</output>");
  });

  it("stops the script and its children when the caller aborts", async () => {
    const pidFile = path.join(temp.path, "waiting.pid");
    const controller = new AbortController();
    const running = run("scripts/wait.sh", [pidFile], controller.signal);
    await waitForFile(pidFile);
    controller.abort();
    expect(await running).toEqual({ output: "skill_execute_file was aborted", isError: true, metadata: { aborted: true } });
    expect(await waitForProcessExit(Number(await readFile(pidFile, "utf8")))).toBe(true);
    expect(await waitForProcessExit(Number(await readFile(`${pidFile}.child`, "utf8")))).toBe(true);
  });

  it("refuses files the skill does not ship, and data skills", async () => {
    expect(await run("../../../../bin/sh")).toEqual({
      output: expect.stringMatching(/^no file \.\.\/\.\.\/\.\.\/\.\.\/bin\/sh in skill runner\. Files in this skill: scripts\/args\.js, /),
      isError: true,
    });
    expect(await run("/bin/sh")).toMatchObject({ isError: true, output: expect.stringMatching(/^no file \/bin\/sh in skill runner/) });
    expect(await run("run.sh", [], undefined, "data-skill")).toEqual({
      output: "skill data-skill is given as data, so its files cannot run; read them with skill_load_file",
      isError: true,
    });
  });
});

/** Resolves once `file` exists and is not empty (the script has written its pid). */
async function waitForFile(file: string): Promise<void> {
  for (;;) {
    const info = await stat(file).catch(() => undefined);
    if (info && info.size > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
