import { isRecord, type PendingAnswer, type Suspension, type WaitFor } from "@weft/sdk";
import type { LineReader } from "./line-reader.js";

/**
 * Answers suspensions at the terminal: a question reads one line, a form reads each field in turn,
 * a URL is shown for the user to open. `/decline` declines; an empty answer to a question cancels.
 * `settle` runs first: it lets the host print what is pending (log lines, a spinner to clear), so the
 * question and its prompt are the last thing on the screen.
 */
export function terminalWaitFor(lines: LineReader, write: (text: string) => void, settle?: () => Promise<void>): WaitFor {
  return async (suspension: Suspension, signal: AbortSignal): Promise<PendingAnswer> => {
    await settle?.();
    // End of input while asking answers nothing: the tool sees a cancel.
    const ask = async (prompt: string) => (await lines.ask(prompt, signal))?.trim() ?? "";
    write(`\n${suspension.toolName} asks: ${suspension.message}\n`);
    if (suspension.url) {
      write(`open ${suspension.url}\n`);
      const reply = await ask("press Enter when done, or type /decline: ");
      return reply === "/decline" ? { action: "decline" } : { action: "accept" };
    }
    const fields = formFields(suspension.schema);
    if (fields.length === 0) {
      const reply = await ask("> ");
      if (reply === "/decline") return { action: "decline" };
      return reply === "" ? { action: "cancel" } : { action: "accept", content: reply };
    }
    const content: Record<string, unknown> = {};
    for (const field of fields) {
      const reply = await ask(`${field.name}${field.description ? ` (${field.description})` : ""}: `);
      if (reply === "/decline") return { action: "decline" };
      if (reply !== "") content[field.name] = coerce(reply, field.type);
    }
    return { action: "accept", content };
  };
}

interface FormField {
  name: string;
  type?: string;
  description?: string;
}

function formFields(schema: Record<string, unknown> | undefined): FormField[] {
  // The schema is a server's (an MCP elicitation): a field of another shape is asked as plain text.
  const properties = isRecord(schema?.properties) ? schema.properties : {};
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  return Object.entries(properties).map(([name, property]) => {
    const field = isRecord(property) ? property : {};
    return { name, type: text(field.type), description: text(field.description) ?? text(field.title) };
  });
}

function coerce(reply: string, type: string | undefined): unknown {
  if (type === "number" || type === "integer") return Number(reply);
  if (type === "boolean") return /^(y|yes|true|1)$/i.test(reply);
  return reply;
}
