/** What a server may give the model in one result when its config sets no `maxResultBytes`: 1 MiB. */
export const DEFAULT_MAX_RESULT_BYTES = 1024 * 1024;

/**
 * The text cut to `maxBytes` of UTF-8 (never inside a character), with a line that says it was cut and how
 * large it was; undefined when it fits. A result that fills the context window breaks the turns after it.
 */
export function limitResult(text: string, maxBytes: number): { text: string; bytes: number } | undefined {
  // Each UTF-16 unit is at most 3 UTF-8 bytes: short texts need no count.
  if (text.length * 3 <= maxBytes) return undefined;
  const encoded = Buffer.from(text, "utf8");
  if (encoded.length <= maxBytes) return undefined;
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) so the cut falls between characters.
  while (end > 0 && ((encoded[end] ?? 0) & 0xc0) === 0x80) end--;
  const head = encoded.subarray(0, end).toString("utf8");
  return { text: `${head}\n[result truncated: it was ${encoded.length} bytes; only the first ${end} are shown (the server's maxResultBytes is ${maxBytes})]`, bytes: encoded.length };
}
