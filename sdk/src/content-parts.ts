import type { ContentPart, DocumentPart, ImagePart, ToolMessage, UserMessage } from "./message.js";
import type { ToolResult } from "./tool.js";

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

/** The media types every provider that takes images or documents accepts. */
export const MODEL_MEDIA_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf"]);

/**
 * A part from base64 bytes or a URL of a type models read (see MODEL_MEDIA_TYPES); undefined for any
 * other type (audio, SVG, archives), which a tool describes in its text instead.
 */
export function mediaPart(mediaType: string, source: { data: string } | { url: string }, name?: string): ImagePart | DocumentPart | undefined {
  const type = mediaType.toLowerCase().split(";")[0]?.trim() ?? "";
  if (!MODEL_MEDIA_TYPES.has(type)) return undefined;
  if (type === "application/pdf") return { type: "document", mediaType: type, ...source, ...(name !== undefined ? { name } : {}) };
  return { type: "image", mediaType: type, ...source };
}

/**
 * A tool result whose text is followed by the images or documents it returned: `output` (what a
 * text-only model or reader sees) names them; `parts` carries the text and then the media.
 */
export function mediaResult(output: string, media: readonly (ImagePart | DocumentPart)[], extra: Omit<ToolResult, "output" | "parts"> = {}): ToolResult {
  if (media.length === 0) return { ...extra, output };
  return { ...extra, output, parts: [...(output ? [{ type: "text" as const, text: output }] : []), ...media] };
}
