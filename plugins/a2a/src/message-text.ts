import type { Artifact, Message, Part } from "@a2a-js/sdk";

/** The text of parts as the model reads it: text verbatim, data as JSON, files by reference; one line each. */
function partsText(parts: readonly Part[] | undefined): string {
  return partTexts(parts).join("\n");
}

function partTexts(parts: readonly Part[] | undefined): string[] {
  return (parts ?? [])
    .map((part) => {
      const content = part.content;
      switch (content?.$case) {
        case "text":
          return content.value;
        case "data":
          return JSON.stringify(content.value);
        case "url":
          return content.value;
        case "raw":
          return `[file ${part.filename || "(unnamed)"}, ${part.mediaType || "application/octet-stream"}]`;
        default:
          return "";
      }
    })
    .filter((text) => text.length > 0);
}

export function messageText(message: Message | undefined): string {
  return partsText(message?.parts);
}

/**
 * Every artifact's text, in order, separated by a blank line. Within an artifact, text parts that follow
 * each other are joined exactly as sent: an agent that streams an artifact appends it in chunks, and
 * both the stream and the stored task keep each chunk as a part (a boundary may fall inside a word).
 */
export function artifactsText(artifacts: readonly Artifact[] | undefined): string {
  return (artifacts ?? [])
    .map((artifact) => artifactText(artifact.parts))
    .filter((text) => text.length > 0)
    .join("\n\n");
}

/** The first URL part of a message (an authorization link). */
export function messageUrl(message: Message | undefined): string | undefined {
  for (const part of message?.parts ?? []) if (part.content?.$case === "url") return part.content.value;
  return undefined;
}

function artifactText(parts: readonly Part[]): string {
  const lines: string[] = [];
  let text: string | undefined;
  for (const part of parts) {
    if (part.content?.$case === "text") {
      text = (text ?? "") + part.content.value;
      continue;
    }
    if (text) lines.push(text);
    text = undefined;
    lines.push(...partTexts([part]));
  }
  if (text) lines.push(text);
  return lines.join("\n");
}
