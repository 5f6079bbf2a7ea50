import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SERVERS, WAIT, alive } from "./test-fixtures/harness.js";

/** The plugin driven from its own node process: a host killed by a signal. (The conformance harness: src/conformance.) */
const run = promisify(execFile);
const pluginDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = join(pluginDir, "../..");
const tsc = join(repoRoot, "node_modules/typescript/bin/tsc");
const compiled = join(pluginDir, "node_modules/.cache/weft-out-of-process/test-fixtures");

let scratch: string;

beforeAll(async () => {
  // The fixtures run in their own node processes, so they are compiled from the current sources first.
  await run(process.execPath, [tsc, "-p", join(pluginDir, "tsconfig.out-of-process.json")], { cwd: repoRoot });
  scratch = await mkdtemp(join(tmpdir(), "weft-out-of-process-"));
}, 120_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe("a host killed by a signal without closing its kernel", () => {
  it("takes its servers' process groups with it, then dies of the signal", async () => {
    const pidFile = join(scratch, "grandchild.pid");
    const host = spawn(process.execPath, [join(compiled, "signal-host.js"), SERVERS.test, pidFile], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = once(host, "exit");
    await new Promise<void>((resolve, reject) => {
      host.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
      host.once("exit", (code) => reject(new Error(`the host exited early (${code})`)));
    });
    const grandchild = Number(await readFile(pidFile, "utf8"));
    expect(alive(grandchild)).toBe(true);

    host.kill("SIGTERM");
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: null, signal: "SIGTERM" });
    await vi.waitFor(() => expect(alive(grandchild)).toBe(false), WAIT);
  }, 60_000);
});
