import type { ToolResult } from "@weft/sdk";

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

export function flattenBlocks(blocks: readonly ContentBlock[]): string {
  return blocks.map(flattenBlock).join("\n");
}

/**
 * A `tools/call` result as a weft ToolResult: the blocks flattened to text (`structuredContent` as JSON
 * when there are none), an MCP error result as an error result with the server's text, and the original
 * blocks on `metadata` for applications that render them.
 */
export function toToolResult(result: CallResult, origin: { server: string; tool: string }): ToolResult {
  const blocks = result.content ?? [];
  let output = flattenBlocks(blocks);
  if (blocks.length === 0 && result.structuredContent !== undefined) output = JSON.stringify(result.structuredContent);
  const metadata: Record<string, unknown> = { server: origin.server, tool: origin.tool, content: blocks };
  if (result.structuredContent !== undefined) metadata.structuredContent = result.structuredContent;
  if (result.isError) return { output: output || `${origin.tool} failed without saying why`, isError: true, metadata };
  return { output, metadata };
}

function base64Bytes(data: string | undefined): number {
  return data ? Buffer.byteLength(data, "base64") : 0;
}
