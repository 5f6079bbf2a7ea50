import { appendFile, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { WeftError, errorMessage } from "@weft/sdk";
import type { TurnRecord } from "@weft/sdk";
import type { SessionState } from "./session-state.js";
import { serialisingStore, type SessionStore } from "./session-store.js";

/** The snapshot file's own field: which generation of the record log belongs to it. */
interface SnapshotFile extends SessionState {
  logGeneration?: number;
}

/** What a file written before services kept their own state held beside the transcript. */
interface EarlierFields {
  todos?: unknown;
  tokenBaseline?: unknown;
  usage?: unknown;
}

/**
 * Sessions as JSON files in one folder (`<dir>/<encoded id>.json`), created on the first save. A save
 * writes a temporary file and renames it, so a crash never leaves half a session behind. Write-ahead
 * records go to a log beside it (`<id>.<generation>.log.jsonl`, one JSON line each); a save starts the
 * next generation and removes the old log, so a crash between the two cannot fold a record in twice.
 * Records reach the OS with each append (they survive the process being killed), not the disk: no fsync.
 */
export function fileSessionStore(dir: string): SessionStore {
  let saves = 0;
  const generations = new Map<string, number>();
  const fileOf = (sessionId: string) => join(dir, `${encodeURIComponent(sessionId)}.json`);
  const logOf = (sessionId: string, generation: number) => join(dir, `${encodeURIComponent(sessionId)}.${generation}.log.jsonl`);

  async function readSnapshot(sessionId: string): Promise<SnapshotFile | undefined> {
    const text = await readIfPresent(fileOf(sessionId));
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as SnapshotFile;
    } catch (error) {
      throw new WeftError("SESSION_INVALID", `${fileOf(sessionId)} is not valid JSON (${errorMessage(error)}); delete it to start the session afresh`, { cause: error });
    }
  }

  async function generationOf(sessionId: string): Promise<number> {
    const known = generations.get(sessionId);
    if (known !== undefined) return known;
    const generation = (await readSnapshot(sessionId))?.logGeneration ?? 0;
    generations.set(sessionId, generation);
    return generation;
  }

  return serialisingStore({
    async get(sessionId) {
      const snapshot = await readSnapshot(sessionId);
      const { logGeneration = 0, ...state } = snapshot ?? {};
      generations.set(sessionId, logGeneration);
      const records = parseLog(logOf(sessionId, logGeneration), await readIfPresent(logOf(sessionId, logGeneration)));
      if (!snapshot && records.length === 0) return undefined;
      const loaded: SessionState = snapshot ? withServices(state as SessionState & EarlierFields) : { version: 1, sessionId, messages: [] };
      return records.length > 0 ? { ...loaded, records } : loaded;
    },
    async save(sessionId, state) {
      // Serialised before the first await: the agent hands over its live state, uncopied.
      const body = JSON.stringify(state, null, 1);
      const before = await generationOf(sessionId);
      const text = `{\n "logGeneration": ${before + 1},${body.slice(1)}`;
      await mkdir(dir, { recursive: true });
      const file = fileOf(sessionId);
      const temporary = `${file}.${process.pid}.${++saves}.tmp`;
      await writeFile(temporary, text);
      await rename(temporary, file);
      generations.set(sessionId, before + 1);
      await rm(logOf(sessionId, before), { force: true });
    },
    async append(sessionId, record) {
      const line = `${JSON.stringify(record)}\n`;
      const generation = await generationOf(sessionId);
      await mkdir(dir, { recursive: true });
      await appendFile(logOf(sessionId, generation), line);
    },
  });
}

/** A file of an earlier weft keeps its todo list, token baseline and usage: they become the services' entries. */
function withServices(state: SessionState & EarlierFields): SessionState {
  const { todos, tokenBaseline, usage, ...rest } = state;
  if (rest.services) return rest;
  const earlier = { todos, "agent.tokenBaseline": tokenBaseline, "agent.usage": usage };
  return { ...rest, services: Object.fromEntries(Object.entries(earlier).filter(([, value]) => value !== undefined)) };
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** The records of a log; a last line without its newline was cut off by the crash and never counted. */
function parseLog(file: string, text: string | undefined): TurnRecord[] {
  if (!text) return [];
  const lines = text.split("\n");
  lines.pop();
  return lines.map((line, index) => {
    try {
      return JSON.parse(line) as TurnRecord;
    } catch (error) {
      throw new WeftError("SESSION_INVALID", `${file}:${index + 1} is not a write-ahead record (${errorMessage(error)}); delete the file to drop the unfinished turn`, { cause: error });
    }
  });
}
