import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { WeftError, errorMessage } from "@weft/sdk";
import type { SessionState } from "./session-state.js";
import { serialisingStore, type SessionStore } from "./session-store.js";

/**
 * Sessions as JSON files in one folder (`<dir>/<encoded id>.json`), created on the first save. A save
 * writes a temporary file and renames it, so a crash never leaves half a session behind.
 */
export function fileSessionStore(dir: string): SessionStore {
  let saves = 0;
  const fileOf = (sessionId: string) => join(dir, `${encodeURIComponent(sessionId)}.json`);
  return serialisingStore({
    async get(sessionId) {
      let text: string;
      try {
        text = await readFile(fileOf(sessionId), "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
      try {
        return JSON.parse(text) as SessionState;
      } catch (error) {
        throw new WeftError("SESSION_INVALID", `${fileOf(sessionId)} is not valid JSON (${errorMessage(error)}); delete it to start the session afresh`, { cause: error });
      }
    },
    async save(sessionId, state) {
      // Serialised before the first await: the agent hands over its live state, uncopied.
      const text = JSON.stringify(state, null, 1);
      await mkdir(dir, { recursive: true });
      const file = fileOf(sessionId);
      const temporary = `${file}.${process.pid}.${++saves}.tmp`;
      await writeFile(temporary, text);
      await rename(temporary, file);
    },
  });
}
