import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { runSessionStoreConformance, sampleSnapshot } from "@weft/sdk/testing";
import { openSessionStore } from "./session-store-config.js";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.js";
import { sqliteSessionStore } from "./sqlite-session-store.js";

const dir = mkdtempSync(join(tmpdir(), "weft-sqlite-"));
let files = 0;
const fileOf = new Map<object, string>();
const freshFile = () => join(dir, `sessions-${++files}.db`);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

runSessionStoreConformance({ describe, it }, "sqlite", {
  async fresh() {
    const file = freshFile();
    const store = sqliteSessionStore({ file });
    fileOf.set(store, file);
    return store;
  },
  // Another connection on the same file, as a second process would open it.
  another: async (store) => sqliteSessionStore({ file: fileOf.get(store) ?? "" }),
});

const WORKER = fileURLToPath(new URL("./test-fixtures/sqlite-worker.mjs", import.meta.url));

interface Worker {
  lines: Promise<Record<string, unknown>>[];
  /** Writes the last line the worker reads. */
  send(line: string): void;
  exited: Promise<number | null>;
}

/** A real child process on the shared file; `lines[n]` is its n-th JSON line of output. */
function worker(args: string[]): Worker {
  const child = spawn(process.execPath, [WORKER, ...args], { stdio: ["pipe", "pipe", "inherit"] });
  const resolvers: ((value: Record<string, unknown>) => void)[] = [];
  const lines = Array.from({ length: 4 }, () => new Promise<Record<string, unknown>>((resolve) => resolvers.push(resolve)));
  let buffered = "";
  let seen = 0;
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      resolvers[seen++]?.(JSON.parse(buffered.slice(0, end)) as Record<string, unknown>);
      buffered = buffered.slice(end + 1);
    }
  });
  return {
    lines,
    send: (line) => child.stdin.end(`${line}\n`),
    exited: new Promise((resolve) => child.once("exit", resolve)),
  };
}

describe("sqlite session store", () => {
  it("sets the file to WAL mode and migrates it once", async () => {
    const file = freshFile();
    const first = sqliteSessionStore({ file });
    const second = sqliteSessionStore({ file });
    expect([await first.migrate(), await second.migrate()]).toEqual([SQLITE_MIGRATIONS.length, 0]);
    await Promise.all([first.close(), second.close()]);
    const db = new Database(file, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.prepare("SELECT version FROM weft_schema").all()).toEqual([{ version: 1 }]);
    db.close();
  });

  it("refuses a file a newer schema wrote, naming the file", async () => {
    const file = freshFile();
    await sqliteSessionStore({ file }).close();
    const db = new Database(file);
    db.prepare("INSERT INTO weft_schema (version, applied_at) VALUES (99, 'later')").run();
    db.close();
    expect(() => sqliteSessionStore({ file })).toThrow(
      `${file}: the session schema is at version 99, newer than this @weft/sessions knows (${SQLITE_MIGRATIONS.length}); upgrade @weft/sessions`,
    );
  });

  it("lets one of two worker processes resuming the same session win; the other gets SESSION_CONFLICT", async () => {
    const file = freshFile();
    const setup = sqliteSessionStore({ file });
    await setup.save("shared", sampleSnapshot("base"), 0);
    await setup.close();
    const workers = [worker(["resume", file, "shared", "worker A"]), worker(["resume", file, "shared", "worker B"])];
    expect(await Promise.all(workers.map((one) => one.lines[0]))).toEqual([{ loaded: 1 }, { loaded: 1 }]);
    for (const one of workers) one.send("go");
    const outcomes = await Promise.all(workers.map((one) => one.lines[1]));
    expect(await Promise.all(workers.map((one) => one.exited))).toEqual([0, 0]);
    const winner = outcomes.findIndex((outcome) => outcome?.won === true);
    expect(outcomes.filter((outcome) => outcome?.won === true)).toHaveLength(1);
    expect(outcomes[1 - winner]).toEqual({ won: false, code: "SESSION_CONFLICT", name: "SessionConflictError" });
    const check = sqliteSessionStore({ file });
    const loaded = await check.load("shared");
    expect([loaded?.version, loaded?.messages]).toEqual([2, [{ role: "user", content: winner === 0 ? "worker A" : "worker B" }]]);
    await check.close();
  });

  it("loses and doubles no write when four processes append to one session at once", async () => {
    const file = freshFile();
    const setup = sqliteSessionStore({ file });
    await setup.save("busy", sampleSnapshot(), 0);
    await setup.close();
    const labels = ["w0", "w1", "w2", "w3"];
    const workers = labels.map((label) => worker(["append", file, "busy", label, "25"]));
    expect(await Promise.all(workers.map((one) => one.exited))).toEqual([0, 0, 0, 0]);
    const check = sqliteSessionStore({ file });
    const loaded = await check.load("busy");
    await check.close();
    expect(loaded?.version).toBe(101);
    const ids = (loaded?.records ?? []).map((record) => (record.message.role === "tool" ? record.message.toolCallId : ""));
    expect(new Set(ids).size).toBe(100);
    for (const label of labels) {
      // Each worker's own records keep its order.
      const own = ids.filter((id) => id.startsWith(`${label}-`));
      expect(own).toEqual(Array.from({ length: 25 }, (_, index) => `${label}-${index}`));
    }
  });

  it("opens from a config, creating the file's folder", async () => {
    const file = join(dir, "nested", "deeper", "sessions.db");
    const opened = await openSessionStore({ store: "sqlite", url: file });
    expect(opened.migrated).toBe(SQLITE_MIGRATIONS.length);
    expect(await opened.store.save("s1", sampleSnapshot(), 0)).toBe(1);
    await opened.store.close();
  });

  it("says what is missing from a config", async () => {
    await expect(openSessionStore({ store: "sqlite" })).rejects.toThrow("sessions.url is required for the sqlite store (a database file)");
    await expect(openSessionStore({ store: "mongo" as "sqlite", url: "x" })).rejects.toThrow('sessions.store must be memory, sqlite or postgres, not "mongo"');
  });
});
