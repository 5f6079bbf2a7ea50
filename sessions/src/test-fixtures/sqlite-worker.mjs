// A worker process on a shared SQLite file, driven by the multi-process test (runs the built store).
import { createInterface } from "node:readline";
import { sqliteSessionStore } from "../../dist/sqlite.js";

const [mode, file, sessionId, label, count] = process.argv.slice(2);
const store = sqliteSessionStore({ file });

if (mode === "resume") {
  // Load, report, wait for the go, then save: two of these race on the same version.
  const loaded = await store.load(sessionId);
  console.log(JSON.stringify({ loaded: loaded?.version }));
  for await (const _line of createInterface({ input: process.stdin })) break;
  try {
    await store.save(sessionId, { messages: [{ role: "user", content: label }], services: {} }, loaded?.version ?? 0);
    console.log(JSON.stringify({ won: true }));
  } catch (error) {
    console.log(JSON.stringify({ won: false, code: error.code, name: error.name }));
  }
} else if (mode === "append") {
  // Append `count` records, reloading after every conflict; no write may be lost or doubled.
  let conflicts = 0;
  for (let index = 0; index < Number(count); index++) {
    const record = { kind: "tool-result", turnId: label, message: { role: "tool", toolCallId: `${label}-${index}`, toolName: "t", content: label } };
    for (;;) {
      const version = (await store.load(sessionId))?.version ?? 0;
      try {
        await store.append(sessionId, record, version);
        break;
      } catch (error) {
        if (error.code !== "SESSION_CONFLICT") throw error;
        conflicts++;
      }
    }
  }
  console.log(JSON.stringify({ conflicts }));
}
await store.close();
