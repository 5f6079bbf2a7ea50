import type { FileHandle } from "node:fs/promises";

const SNIFF_BYTES = 8192;

/** Whether an open file looks binary: a NUL byte in its first 8 KiB, as git and grep decide. */
export async function isBinaryFile(handle: FileHandle): Promise<boolean> {
  const buffer = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
  return buffer.subarray(0, bytesRead).includes(0);
}
