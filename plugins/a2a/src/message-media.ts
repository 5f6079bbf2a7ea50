import type { Artifact, Message, Part } from "@a2a-js/sdk";
import { mediaPart, type DocumentPart, type ImagePart } from "@weft/sdk";

/**
 * The file parts of an agent's reply that reach the model as content parts: raw bytes or a URL of a
 * type models read (PNG, JPEG, GIF, WebP, PDF). Other files stay as their line in the text
 * (`[file report.zip, application/zip]`, or the URL).
 */
function partsMedia(parts: readonly Part[] | undefined): (ImagePart | DocumentPart)[] {
  return (parts ?? []).flatMap((part) => {
    const content = part.content;
    const name = part.filename || undefined;
    if (content?.$case === "raw") return [mediaPart(part.mediaType, { data: Buffer.from(content.value).toString("base64") }, name)].filter((media) => media !== undefined);
    if (content?.$case === "url" && part.mediaType) return [mediaPart(part.mediaType, { url: content.value }, name)].filter((media) => media !== undefined);
    return [];
  });
}

export function messageMedia(message: Message | undefined): (ImagePart | DocumentPart)[] {
  return partsMedia(message?.parts);
}

export function artifactsMedia(artifacts: readonly Artifact[] | undefined): (ImagePart | DocumentPart)[] {
  return (artifacts ?? []).flatMap((artifact) => partsMedia(artifact.parts));
}
