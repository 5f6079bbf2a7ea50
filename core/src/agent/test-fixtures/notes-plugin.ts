import { Type } from "typebox";
import { PLUGIN_API_VERSION, defineTool, definePlugin } from "@weft/sdk";
import type { AnyPlugin, SessionStateService, StateSession } from "@weft/sdk";

/** Notes per session on one kernel-wide service: the way a plugin keeps per-session state. */
export class Notes implements SessionStateService {
  readonly bySession = new Map<string, string[]>();
  failSave = false;

  add(sessionId: string, note: string): string[] {
    const notes = [...(this.bySession.get(sessionId) ?? []), note];
    this.bySession.set(sessionId, notes);
    return notes;
  }
  saveSessionState(session: StateSession): unknown {
    if (this.failSave) throw new Error("disk full");
    const notes = this.bySession.get(session.id);
    return notes ? [...notes] : undefined;
  }
  restoreSessionState(session: StateSession, value: unknown): void {
    if (!Array.isArray(value) || !value.every((note) => typeof note === "string")) throw new Error("not a list of notes");
    this.bySession.set(session.id, [...value]);
  }
  forgetSessionState(session: StateSession): void {
    this.bySession.delete(session.id);
  }
}

declare module "@weft/sdk" {
  interface WeftServices {
    "test.notes": Notes;
  }
}

/** Provides `notes` as the `test.notes` service, with a `note` tool that adds one and answers the session's notes so far. */
export function notesPlugin(notes: Notes): AnyPlugin {
  return definePlugin({
    meta: { name: "@acme/notes", version: "1.0.0", api: PLUGIN_API_VERSION },
    setup(api) {
      api.provide("test.notes", notes);
      api.tools.add(
        defineTool({
          name: "note",
          description: "Keep a note for this session",
          input: Type.Object({ text: Type.String() }),
          execute: ({ text }, ctx) => ({ output: notes.add(ctx.session?.id ?? "", text).join("; ") }),
        }),
      );
    },
  });
}
