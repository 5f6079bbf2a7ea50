/** Signatures of common binary formats a skill may ship, to name the type of a refused file. */
const SIGNATURES: [type: string, offset: number, bytes: number[]][] = [
  ["image/png", 0, [0x89, 0x50, 0x4e, 0x47]],
  ["image/jpeg", 0, [0xff, 0xd8, 0xff]],
  ["image/gif", 0, [0x47, 0x49, 0x46, 0x38]],
  ["image/webp", 8, [0x57, 0x45, 0x42, 0x50]],
  ["application/pdf", 0, [0x25, 0x50, 0x44, 0x46]],
  ["application/zip", 0, [0x50, 0x4b, 0x03, 0x04]],
  ["application/gzip", 0, [0x1f, 0x8b]],
  ["application/x-executable", 0, [0x7f, 0x45, 0x4c, 0x46]],
  ["application/wasm", 0, [0x00, 0x61, 0x73, 0x6d]],
];

/** The MIME type of binary content by its leading bytes; `application/octet-stream` when unknown. */
export function binaryType(head: Uint8Array): string {
  const match = SIGNATURES.find(([, offset, bytes]) => bytes.every((byte, index) => head[offset + index] === byte));
  return match?.[0] ?? "application/octet-stream";
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The content as text, or undefined when it is binary: a NUL byte, or bytes that are not UTF-8. */
export function decodeText(content: Uint8Array): string | undefined {
  if (content.includes(0)) return undefined;
  try {
    return utf8.decode(content);
  } catch {
    return undefined;
  }
}
