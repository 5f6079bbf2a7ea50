import type { FileHandle } from "node:fs/promises";
import { mediaPart, mediaResult, type ToolResult } from "@weft/sdk";

/** Providers' limits per attachment: Anthropic takes images up to 5 MB and PDFs up to 32 MB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_PDF_BYTES = 32 * 1024 * 1024;

/** Magic numbers of the file types models read; a file is recognised by its bytes, never its name. */
const SIGNATURES: readonly { mediaType: string; matches(head: Buffer): boolean }[] = [
  { mediaType: "image/png", matches: (head) => head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { mediaType: "image/jpeg", matches: (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff },
  { mediaType: "image/gif", matches: (head) => /^GIF8[79]a/.test(head.subarray(0, 6).toString("latin1")) },
  { mediaType: "image/webp", matches: (head) => head.subarray(0, 4).toString("latin1") === "RIFF" && head.subarray(8, 12).toString("latin1") === "WEBP" },
  { mediaType: "application/pdf", matches: (head) => head.subarray(0, 5).toString("latin1") === "%PDF-" },
];

/** The media type of an image or PDF file, from its first bytes; undefined for anything else. */
export async function sniffMedia(handle: FileHandle): Promise<string | undefined> {
  const head = Buffer.alloc(12);
  const { bytesRead } = await handle.read(head, 0, head.length, 0);
  return SIGNATURES.find((signature) => signature.matches(head.subarray(0, bytesRead)))?.mediaType;
}

/**
 * An image or PDF as a tool result: a line naming it (what a model without vision reads, and what
 * the transcript shows) and the file as a content part. Too large a file is an error result saying
 * the limit. Text the model reads: pinned in the tests.
 */
export async function mediaFileResult(handle: FileHandle, requested: string, mediaType: string, path: string): Promise<ToolResult> {
  const { size } = await handle.stat();
  const limit = mediaType === "application/pdf" ? MAX_PDF_BYTES : MAX_IMAGE_BYTES;
  if (size > limit) {
    return { output: `${requested} (${mediaType}) is ${size} bytes, larger than the ${limit} bytes a model takes`, isError: true };
  }
  const data = (await handle.readFile()).toString("base64");
  const name = requested.split("/").at(-1) ?? requested;
  const part = mediaPart(mediaType, { data }, name);
  return mediaResult(`<file path="${requested}" type="${mediaType}" bytes="${size}"> (attached)`, part ? [part] : [], { metadata: { path, mediaType, bytes: size } });
}
