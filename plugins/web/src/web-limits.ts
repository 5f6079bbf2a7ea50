import { DEFAULT_MAX_OUTPUT_BYTES } from "@weft/sdk";
import type { FetchLimits } from "./fetch-page.js";

/** What the native web tools are allowed to do; every field has a default. */
export interface WebLimits extends FetchLimits {
  /** Pages one crawl may fetch at most; `max_pages` cannot go past it. */
  maxPages: number;
  /** How long converting one page's HTML may take; past it the model reads what was converted and why it stopped. */
  conversionBudgetMs: number;
}

export const DEFAULT_WEB_LIMITS: WebLimits = {
  timeoutMs: 30_000,
  // The one output cap every tool family shares by default.
  maxBytes: DEFAULT_MAX_OUTPUT_BYTES,
  maxRedirects: 5,
  maxPages: 20,
  // How long one page's conversion may take when the pack is not told otherwise.
  conversionBudgetMs: 4_000,
  network: { allowPrivateNetwork: false, allowHosts: [] },
  userAgent: "Mozilla/5.0 (compatible; weft-web/0.1; +https://www.npmjs.com/package/@weft/plugin-web)",
};

export function byteSize(bytes: number): string {
  const mib = 1024 * 1024;
  return bytes % mib === 0 ? `${bytes / mib} MiB` : `${bytes} bytes`;
}
