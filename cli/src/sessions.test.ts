import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleSnapshot } from "@weft/sdk/testing";
import { sqliteSessionStore } from "@weft/sessions/sqlite";
import { weft } from "./test-fixtures/weft-process.js";

describe("weft sessions", () => {
  let project: string;
  beforeAll(async () => {
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-sessions-cli-")));
    await writeFile(path.join(project, "weft.config.yaml"), "sessions: { store: sqlite, url: ./data/sessions.db }\n");
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  it("migrates the configured store once, then lists, shows and deletes its sessions", async () => {
    expect(await weft(project, ["sessions", "migrate"])).toEqual({ code: 0, stderr: "", stdout: "sqlite: applied 1 migration\n" });
    expect(await weft(project, ["sessions", "migrate"])).toEqual({ code: 0, stderr: "", stdout: "sqlite: the schema is up to date\n" });

    const store = sqliteSessionStore({ file: path.join(project, "data", "sessions.db") });
    await store.save("order-42", { ...sampleSnapshot(), pending: { suspensions: [{ kind: "approval", message: "Refund?", callId: "c1", toolName: "refund" }], turn: {} } }, 0);
    const updatedAt = (await store.load("order-42"))?.updatedAt;
    await store.close();

    const listed = await weft(project, ["sessions", "list"]);
    expect(listed).toEqual({
      code: 0,
      stderr: "",
      stdout: `SESSION   VERSION  UPDATED                   MESSAGES  PENDING\norder-42  1        ${updatedAt}  2         1\n1 sessions\n`,
    });
    expect(JSON.parse((await weft(project, ["sessions", "list", "--pending", "--json"])).stdout)).toEqual([
      { sessionId: "order-42", version: 1, updatedAt, messages: 2, pending: 1 },
    ]);
    const shown = JSON.parse((await weft(project, ["sessions", "show", "order-42"])).stdout);
    expect(shown).toMatchObject({ sessionId: "order-42", version: 1, prompt: "You are terse.", records: [] });

    expect(await weft(project, ["sessions", "delete", "order-42"])).toEqual({ code: 0, stderr: "", stdout: "deleted order-42\n" });
    expect(await weft(project, ["sessions", "show", "order-42"])).toEqual({ code: 1, stderr: 'no session "order-42" in the store\n', stdout: "" });
  });

  it("names the file and option of a bad sessions section", async () => {
    const bad = await realpath(await mkdtemp(path.join(tmpdir(), "weft-sessions-bad-")));
    await writeFile(path.join(bad, "weft.config.yaml"), "sessions: { store: sqlite }\n");
    const result = await weft(bad, ["sessions", "list"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${bad}/weft.config.yaml:1:11 (option sessions): the sqlite store needs a url`);
    await rm(bad, { recursive: true, force: true });
  });
});
