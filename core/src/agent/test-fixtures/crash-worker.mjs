// A process the write-ahead test kills with SIGKILL mid-turn. It runs one turn of an agent on a file
// store (or a SQLite one, through the contract adapter) and reports on stdout, one JSON line each, every record it has written ahead and every tool
// that has started, so the test kills it at a known step, never after a sleep.
//   node crash-worker.mjs <store dir> <session id> <round|model> [file|sqlite]
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent, createKernel, fileSessionStore, versionedSessionStore } from "@weft/core";
import { memoryLogger } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";

const [dir, sessionId, stopIn, kind = "file"] = process.argv.slice(2);
const say = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
const forever = () => new Promise(() => {});

/** The tools of the session; `charge` and `lookup` never finish here, so the kill finds them running. */
function tool(name, run, annotations) {
  return {
    name,
    description: `The ${name} tool`,
    inputSchema: { type: "object", properties: {} },
    ...(annotations ? { annotations } : {}),
    async execute() {
      appendFileSync(join(dir, "runs.log"), `${name}:worker\n`);
      say({ started: name });
      return run();
    },
  };
}
const tools = [
  tool("record", async () => ({ output: "recorded" })),
  tool("charge", forever),
  tool("lookup", forever, { idempotentHint: true }),
];

// The SQLite store comes from @weft/sessions (which depends on core), so it is only imported when asked for.
const files =
  kind === "sqlite"
    ? versionedSessionStore((await import("@weft/sessions/sqlite")).sqliteSessionStore({ file: join(dir, "sessions.db") }))
    : fileSessionStore(join(dir, "sessions"));
const store = {
  get: (id) => files.get(id),
  save: (id, state) => files.save(id, state),
  async append(id, record) {
    await files.append(id, record);
    say({ appended: record.kind, ...(record.kind === "tool-result" ? { callId: record.message.toolCallId } : {}) });
  },
};
const model = scriptedModel(
  stopIn === "model"
    ? [
        () => {
          say({ model: "called" });
          return { delayMs: 3_600_000 };
        },
      ]
    : [
        {
          text: "Working on it.",
          toolCalls: [
            { id: "c1", name: "record", arguments: {} },
            { id: "c2", name: "charge", arguments: {} },
            { id: "c3", name: "lookup", arguments: {} },
          ],
        },
      ],
);
const kernel = createKernel({ logger: memoryLogger() });
const agent = createAgent({ model, kernel, store, sessionId });
await agent.startSession({ prompt: "You do the work.", tools });
say({ ready: true });
await agent.process("do the work");
say({ unexpected: "the turn finished" });
