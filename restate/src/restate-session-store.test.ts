import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { runSessionStoreConformance } from "@weft/sdk/testing";
import { restateSessionStore } from "./restate-session-store.js";
import { freePort, startRestateServer, type RestateServer } from "./testing/index.js";
import { startWorker, type WorkerProcess } from "./test-fixtures/worker-process.js";

// The shared session store suite against the sessions the Restate runner keeps: the real
// restate-server, a real worker serving the agent object once per test (so each test starts empty).

const OBJECTS = 14;
let server: RestateServer;
let worker: WorkerProcess | undefined;
let dir: string;
let next = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "weft-restate-store-"));
  server = await startRestateServer();
  const port = await freePort();
  worker = await startWorker(port, join(dir, "effects.log"), { STORE_OBJECTS: String(OBJECTS) });
  await server.register(`http://127.0.0.1:${port}`);
});

afterAll(async () => {
  await worker?.kill();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A store on the current test's object; every call is another client, as a second host would hold. */
const store = () => restateSessionStore({ ingressUrl: server.ingressUrl, adminUrl: server.adminUrl, name: `weft-store-${next}` });

runSessionStoreConformance({ describe, it }, "restate", {
  fresh: async () => {
    next += 1;
    if (next > OBJECTS) throw new Error(`the worker serves ${OBJECTS} store objects; the suite has more tests`);
    return store();
  },
  another: async () => store(),
});
