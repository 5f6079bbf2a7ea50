import type { ContentPart, DocumentPart, ImagePart, ToolMessage, UserMessage } from "./message.js";

/** The parts of a user message or tool result: its `parts`, or its text as the one part. */
export function messageParts(message: UserMessage | ToolMessage): ContentPart[] {
  if (message.parts && message.parts.length > 0) return message.parts;
  return message.content === "" ? [] : [{ type: "text", text: message.content }];
}

/** Whether a message carries anything besides text. */
export function hasMediaParts(message: UserMessage | ToolMessage): boolean {
  return message.parts?.some((part) => part.type !== "text") ?? false;
}

/** An image part from its bytes. */
export function imagePart(bytes: Uint8Array, mediaType: string): ImagePart {
  return { type: "image", mediaType, data: Buffer.from(bytes).toString("base64") };
}

/** A document (PDF) part from its bytes. */
export function documentPart(bytes: Uint8Array, mediaType = "application/pdf", name?: string): DocumentPart {
  return { type: "document", mediaType, data: Buffer.from(bytes).toString("base64"), ...(name !== undefined ? { name } : {}) };
}

/**
 * The text a model reads in place of a part it cannot take, so it knows something was there:
 * `[image image/png omitted: this model does not accept images]`.
 */
export function partPlaceholder(part: ImagePart | DocumentPart, reason: string): string {
  const label = part.type === "document" && part.name ? `document ${part.name} (${part.mediaType})` : `${part.type} ${part.mediaType}`;
  return `[${label} omitted: ${reason}]`;
}

/** The part's bytes as a `data:` URL, or its URL. */
export function partUrl(part: ImagePart | DocumentPart): string {
  return part.data !== undefined ? `data:${part.mediaType};base64,${part.data}` : (part.url ?? "");
}
