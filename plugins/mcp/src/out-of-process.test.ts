import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SERVERS, WAIT, alive } from "./test-fixtures/harness.js";

/** The plugin driven from its own node process: the official conformance suite, and a host killed by a signal. */
const run = promisify(execFile);
const pluginDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = join(pluginDir, "../..");
const conformance = join(repoRoot, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
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

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO";
  errorMessage?: string;
}

/** The official client conformance suite, with this plugin as the client under test. */
describe("MCP client conformance (@modelcontextprotocol/conformance)", () => {
  async function scenario(name: string): Promise<Check[]> {
    const output = join(scratch, name);
    // A failed scenario exits non-zero, which rejects here with the suite's output.
    await run(
      process.execPath,
      [conformance, "client", "--command", `${process.execPath} ${join(compiled, "conformance-client.js")}`, "--scenario", name, "--timeout", "60000", "-o", output],
      { cwd: repoRoot, timeout: 90_000 },
    );
    const [folder = ""] = await readdir(output);
    return JSON.parse(await readFile(join(output, folder, "checks.json"), "utf8")) as Check[];
  }

  const verdicts = (checks: Check[]) => checks.filter((check) => check.status !== "INFO").map((check) => `${check.id}: ${check.status}`);

  it("initialize", async () => {
    expect(verdicts(await scenario("initialize"))).toEqual(["mcp-client-initialization: SUCCESS"]);
  }, 120_000);

  it("tools_call", async () => {
    expect(verdicts(await scenario("tools_call"))).toEqual(["tool-add-numbers: SUCCESS"]);
  }, 120_000);

  it("elicitation-sep1034-client-defaults, answered through a pending request", async () => {
    expect(verdicts(await scenario("elicitation-sep1034-client-defaults"))).toEqual([
      "client-elicitation-sep1034-string-default: SUCCESS",
      "client-elicitation-sep1034-integer-default: SUCCESS",
      "client-elicitation-sep1034-number-default: SUCCESS",
      "client-elicitation-sep1034-enum-default: SUCCESS",
      "client-elicitation-sep1034-boolean-default: SUCCESS",
    ]);
  }, 120_000);

  it("sse-retry: resumes the broken stream with Last-Event-ID after the server's retry delay", async () => {
    const checks = await scenario("sse-retry");
    const byId = new Map(checks.map((check) => [check.id, check]));
    expect(byId.get("client-sse-graceful-reconnect")?.status).toBe("SUCCESS");
    expect(byId.get("client-sse-last-event-id")?.status).toBe("SUCCESS");
    // The suite grades its own timing; a busy machine may make it WARNING (late), never FAILURE.
    expect(["SUCCESS", "WARNING"]).toContain(byId.get("client-sse-retry-timing")?.status);
    expect(checks.filter((check) => check.status === "FAILURE")).toEqual([]);
  }, 120_000);
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
