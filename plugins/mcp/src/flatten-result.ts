import { isDeepStrictEqual } from "node:util";
import { mediaPart, mediaResult, type DocumentPart, type ImagePart, type ToolResult } from "@weft/sdk";
import { DEFAULT_MAX_RESULT_BYTES, limitResult } from "./result-limit.js";

/** A content block as MCP servers send them (tool results, prompt messages). */
export interface ContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
  [key: string]: unknown;
}

/** What `tools/call` returns. */
export interface CallResult {
  content?: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

/** One block as the text the model reads. Binary data is described, never inlined. */
export function flattenBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text ?? "";
    case "image":
    case "audio":
      return `[${block.type}: ${block.mimeType ?? "unknown type"}, ${base64Bytes(block.data)} bytes]`;
    case "resource_link":
      return `[resource: ${block.uri}]`;
    case "resource": {
      const resource = block.resource;
      if (!resource) return "[embedded resource]";
      if (typeof resource.text === "string") return resource.text;
      return `[embedded resource: ${resource.uri} (${resource.mimeType ?? "unknown type"}, ${base64Bytes(resource.blob)} bytes)]`;
    }
    default:
      return `[${block.type} content]`;
  }
}

function flattenBlocks(blocks: readonly ContentBlock[]): string {
  // Most results are one text block: its text as it is, with no array to join.
  const [only] = blocks;
  if (blocks.length === 1 && only) return flattenBlock(only);
  return blocks.map(flattenBlock).join("\n");
}

/** How a server's results are shaped for the model. */
export interface ResultShape {
  /** The most text the model gets, in UTF-8 bytes. */
  maxResultBytes?: number;
  /** The tool's outputSchema check (see `outputChecker`): the problems with a structured value. */
  checkOutput?(value: unknown): string[];
}

/**
 * A `tools/call` result as a weft ToolResult: the blocks flattened to text, `structuredContent` added as
 * JSON unless a text block already carries it (and checked against the outputSchema: a mismatch is a
 * warning in metadata), the whole cut to `maxResultBytes`, an MCP error result as an error result with
 * the server's text, and the original blocks on `metadata` for applications that render them.
 */
export function toToolResult(result: CallResult, origin: { server: string; tool: string }, shape: ResultShape = {}): ToolResult {
  const blocks = result.content ?? [];
  let output = flattenBlocks(blocks);
  const metadata: Record<string, unknown> = { server: origin.server, tool: origin.tool, content: blocks };
  const structured = result.structuredContent;
  if (structured !== undefined) {
    metadata.structuredContent = structured;
    if (!carries(blocks, structured, output)) output = output ? `${output}\n${JSON.stringify(structured)}` : JSON.stringify(structured);
    const problems = result.isError ? [] : (shape.checkOutput?.(structured) ?? []);
    if (problems.length > 0) metadata.outputSchemaWarning = `structuredContent does not match ${origin.tool}'s outputSchema: ${problems.join("; ")}`;
  }
  const limited = limitResult(output, shape.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES);
  if (limited) {
    output = limited.text;
    metadata.truncatedFromBytes = limited.bytes;
  }
  if (result.isError) return { output: output || `${origin.tool} failed without saying why`, isError: true, metadata };
  // A result with no media (most of them) is made here, as mediaResult makes it: through mediaResult, its
  // copy of the `{ metadata }` it takes cost more than the rest of the result.
  if (!blocks.some(isMediaBlock)) return { metadata, output };
  return mediaResult(output, blocks.flatMap(modelMedia), { metadata });
}

/** A block that can carry an image or a document: only those are looked into for content parts. */
function isMediaBlock(block: ContentBlock): boolean {
  return block.type === "image" || block.type === "resource";
}

/**
 * The images and documents of a block that reach the model as content parts: image blocks and
 * embedded resource blobs of a type models read (PNG, JPEG, GIF, WebP, PDF). Audio and other blobs
 * stay as their text description (`[audio: audio/wav, 1024 bytes]`), which no provider maps yet.
 */
function modelMedia(block: ContentBlock): (ImagePart | DocumentPart)[] {
  if (block.type === "image" && block.data && block.mimeType) return [mediaPart(block.mimeType, { data: block.data })].filter((part) => part !== undefined);
  const resource = block.resource;
  if (block.type === "resource" && resource?.blob && resource.mimeType) {
    const name = resource.uri.split("/").at(-1) || resource.uri;
    return [mediaPart(resource.mimeType, { data: resource.blob }, name)].filter((part) => part !== undefined);
  }
  return [];
}

/**
 * Whether the blocks already carry the structured value: a text block is it as JSON (servers are asked to
 * send both), or it is an object each of whose fields the blocks already hold: a string the text contains
 * (server-filesystem's `{ content }`) or a value a text block is as JSON (server-memory's `{ entities }`).
 */
function carries(blocks: readonly ContentBlock[], structured: unknown, text: string): boolean {
  const parsed = blocks.flatMap((block) => (block.type === "text" && typeof block.text === "string" ? parseJson(block.text) : []));
  if (parsed.some((value) => isDeepStrictEqual(value, structured))) return true;
  if (typeof structured !== "object" || structured === null || Array.isArray(structured)) return false;
  const fields = Object.values(structured);
  return fields.length > 0 && fields.every((field) => (typeof field === "string" ? text.includes(field) : parsed.some((value) => isDeepStrictEqual(value, field))));
}

/** A text block's JSON value, or nothing when it is not JSON. */
function parseJson(text: string): unknown[] {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return [];
  try {
    return [JSON.parse(trimmed)];
  } catch {
    return [];
  }
}

function base64Bytes(data: string | undefined): number {
  return data ? Buffer.byteLength(data, "base64") : 0;
}
