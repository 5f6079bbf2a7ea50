import { WeftError } from "@weft/sdk";

/** Refuses a database whose schema a newer @weft/sessions wrote: this one would misread it. */
export function assertKnownSchema(where: string, applied: number, known: number): void {
  if (applied > known) {
    throw new WeftError(
      "SESSION_INVALID",
      `${where}: the session schema is at version ${applied}, newer than this @weft/sessions knows (${known}); upgrade @weft/sessions`,
    );
  }
}
