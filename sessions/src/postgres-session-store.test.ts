import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { runSessionStoreConformance, sampleSnapshot } from "@weft/sdk/testing";
import { POSTGRES_MIGRATIONS } from "./postgres-migrations.js";
import { postgresSessionStore } from "./postgres-session-store.js";
import { openSessionStore } from "./session-store-config.js";
import { POSTGRES_URL_VARIABLE, startPostgresCluster, type PostgresCluster } from "./postgres-cluster.js";

// A real server: the one scripts/ci-postgres.sh started, or a throwaway cluster of our own.
let cluster: PostgresCluster | undefined;
let serverUrl = process.env[POSTGRES_URL_VARIABLE] ?? "";
let admin: pg.Pool;
let databases = 0;
const urls = new Map<object, string>();

beforeAll(async () => {
  if (!serverUrl) {
    cluster = await startPostgresCluster();
    serverUrl = cluster.url;
  }
  admin = new pg.Pool({ connectionString: serverUrl, max: 2 });
});

afterAll(async () => {
  await admin?.end();
  cluster?.stop();
});

/** A new, empty database on the server, so every test starts from nothing. */
async function freshDatabase(): Promise<string> {
  const name = `weft_test_${process.pid}_${++databases}`;
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

runSessionStoreConformance({ describe, it }, "postgres", {
  async fresh() {
    const url = await freshDatabase();
    const store = postgresSessionStore({ url });
    urls.set(store, url);
    return store;
  },
  // A second pool: another worker's connections, racing on the same rows.
  another: async (store) => postgresSessionStore({ url: urls.get(store) ?? "" }),
});

describe("postgres session store", () => {
  it("runs its migrations once, on first use, however many workers start together", async () => {
    const url = await freshDatabase();
    const workers = Array.from({ length: 4 }, () => postgresSessionStore({ url }));
    const applied = await Promise.all(workers.map((store) => store.migrate()));
    expect(applied.sort()).toEqual([0, 0, 0, POSTGRES_MIGRATIONS.length]);
    const check = new pg.Pool({ connectionString: url, max: 1 });
    const { rows } = await check.query("SELECT version FROM weft_schema ORDER BY version");
    expect(rows).toEqual(POSTGRES_MIGRATIONS.map((_, index) => ({ version: index + 1 })));
    await check.end();
    for (const store of workers) await store.close();
  });

  it("refuses a database a newer schema wrote", async () => {
    const url = await freshDatabase();
    const first = postgresSessionStore({ url });
    await first.migrate();
    await first.close();
    const check = new pg.Pool({ connectionString: url, max: 1 });
    await check.query("INSERT INTO weft_schema (version, applied_at) VALUES (99, now())");
    await check.end();
    const later = postgresSessionStore({ url });
    await expect(later.load("s1")).rejects.toThrow(
      `postgres: the session schema is at version 99, newer than this @weft/sessions knows (${POSTGRES_MIGRATIONS.length}); upgrade @weft/sessions`,
    );
    await later.close();
  });

  it("opens from a config and reports the migrations it applied", async () => {
    const url = await freshDatabase();
    const opened = await openSessionStore({ store: "postgres", url });
    expect(opened.migrated).toBe(POSTGRES_MIGRATIONS.length);
    await opened.store.save("s1", sampleSnapshot(), 0);
    await opened.store.close();
    const again = await openSessionStore({ store: "postgres", url });
    expect(again.migrated).toBe(0);
    expect((await again.store.load("s1"))?.version).toBe(1);
    await again.store.close();
  });
});
