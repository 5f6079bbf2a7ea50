import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isProcessAlive, waitForProcessExit } from "./testing/process-gone.js";
import { formatProcessOutput, runProcess } from "./process-runner.js";

describe("runProcess", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "weft-run-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("merges stdout and stderr in the order written and reports the exit code", async () => {
    const outcome = await runProcess({ command: "/bin/sh", args: ["-c", "echo one; echo two >&2; echo three; exit 3"] });
    expect(outcome).toMatchObject({ exitCode: 3, output: "one\ntwo\nthree\n", truncated: false, timedOut: false, aborted: false });
    expect(formatProcessOutput(outcome)).toBe("exit status: 3\n<output>\none\ntwo\nthree\n</output>");
  });

  it("gives the program no stdin", async () => {
    const outcome = await runProcess({ command: "cat" });
    expect(outcome).toMatchObject({ exitCode: 0, output: "" });
  });

  it("passes arguments without a shell interpreting them", async () => {
    const outcome = await runProcess({ command: "printf", args: ["%s|", "$HOME", "a b", "`x`"] });
    expect(outcome.output).toBe("$HOME|a b|`x`|");
  });

  it("caps output, marks it truncated and stops the process", async () => {
    const outcome = await runProcess({ command: "yes", maxOutputBytes: 1000 });
    expect(outcome.truncated).toBe(true);
    expect(Buffer.byteLength(outcome.output)).toBe(1000);
    expect(formatProcessOutput(outcome)).toMatch(/^exit status: 137\n<output truncated="true">\ny\ny\n/);
  });

  it("kills the whole process group on timeout, grandchildren included", async () => {
    const pidFile = path.join(dir, "grandchild.pid");
    const outcome = await runProcess({ command: "/bin/sh", args: ["-c", `sleep 30 & echo $! > ${pidFile}; wait`], timeoutMs: 300 });
    expect(outcome.timedOut).toBe(true);
    expect(await waitForProcessExit(Number(await readFile(pidFile, "utf8")))).toBe(true);
  });

  it("kills a child that outlives the program once the program exits", async () => {
    const pidFile = path.join(dir, "orphan.pid");
    const outcome = await runProcess({ command: "/bin/sh", args: ["-c", `sleep 30 & echo $! > ${pidFile}; echo done`] });
    expect(outcome).toMatchObject({ exitCode: 0, output: "done\n", timedOut: false });
    expect(await waitForProcessExit(Number(await readFile(pidFile, "utf8")))).toBe(true);
  });

  it("returns at the time limit and kills a descendant that escaped the process group", async () => {
    const pidFile = path.join(dir, "escaped.pid");
    const started = performance.now();
    const outcome = await runProcess({ command: "/bin/sh", args: ["-c", `setsid sleep 60 & echo $! > ${pidFile}; echo x; sleep 60`], timeoutMs: 500 });
    const elapsed = performance.now() - started;
    expect(outcome).toMatchObject({ timedOut: true, output: "x\n", survivors: [] });
    // Not a timing assertion on speed: the bound is the hardening contract (the limit plus 1 s), far from any normal run.
    expect(elapsed).toBeLessThan(500 + 1000);
    expect(await isProcessAlive(Number(await readFile(pidFile, "utf8")))).toBe(false);
  });

  it("kills an escaped descendant that holds the pipe once the program exits", async () => {
    const pidFile = path.join(dir, "escaped-after-exit.pid");
    const outcome = await runProcess({ command: "/bin/sh", args: ["-c", `setsid sleep 60 & echo $! > ${pidFile}; echo x`], timeoutMs: 30_000 });
    expect(outcome).toMatchObject({ exitCode: 0, timedOut: false, output: "x\n", survivors: [] });
    expect(await isProcessAlive(Number(await readFile(pidFile, "utf8")))).toBe(false);
  });

  it("kills every process of a fork loop that escaped the group", async () => {
    const pidFile = path.join(dir, "forked.pids");
    // The loop leaves the group and keeps starting sleepers that each leave it again.
    const loop = `setsid sh -c 'echo $$ >> ${pidFile}; while :; do setsid sleep 60 & echo $! >> ${pidFile}; sleep 0.01; done' &`;
    const outcome = await runProcess({ command: "/bin/sh", args: ["-c", `${loop} sleep 60`], timeoutMs: 400 });
    expect(outcome).toMatchObject({ timedOut: true, survivors: [] });
    const pids = (await readFile(pidFile, "utf8")).trim().split("\n").map(Number);
    expect(pids.length).toBeGreaterThan(5);
    for (const pid of pids) expect(await isProcessAlive(pid)).toBe(false);
  });

  it("names what it could not kill", () => {
    const outcome = { exitCode: 137, output: "x\n", truncated: false, timedOut: true, aborted: false, durationMs: 1, survivors: [41, 42], pipesHeld: false };
    expect(formatProcessOutput(outcome)).toBe(
      "exit status: 137\n<output>\nx\n</output>\nwarning: 2 process(es) it started could not be killed and may still run (pids 41, 42)",
    );
  });

  it("returns and says so when a descendant that cleared its environment holds the pipe", async () => {
    const pidFile = path.join(dir, "hidden.pid");
    const outcome = await runProcess({ command: "/bin/sh", args: ["-c", `setsid env -i /bin/sleep 60 & echo $! > ${pidFile}; sleep 0.3; echo x`] });
    const pid = Number(await readFile(pidFile, "utf8"));
    try {
      expect(outcome).toMatchObject({ exitCode: 0, output: "x\n", pipesHeld: true });
      expect(formatProcessOutput(outcome)).toBe(
        "exit status: 0\n<output>\nx\n</output>\nwarning: a process it started still held its output open and could not be found to be killed; it may still run",
      );
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });

  it("stops on abort", async () => {
    const controller = new AbortController();
    const running = runProcess({ command: "sleep", args: ["30"], signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await running).toMatchObject({ aborted: true, exitCode: 137 });
  });

  it("reports a program that cannot be run", async () => {
    const script = path.join(dir, "not-executable.sh");
    await writeFile(script, "#!/bin/sh\necho hi\n");
    const denied = await runProcess({ command: script });
    expect(denied.exitCode).toBe(126);
    expect(denied.output).toContain("Permission denied");
    const missing = await runProcess({ command: "weft-no-such-program" });
    expect(missing.exitCode).toBe(127);
    expect(missing.output).toContain("not found");
  });
});
