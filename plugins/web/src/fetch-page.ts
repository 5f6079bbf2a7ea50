import { deadlinePassed, errorMessage } from "@weft/sdk";
import { NetworkRefusedError, type NetworkPolicy } from "./network-guard.js";

export interface FetchLimits {
  timeoutMs: number;
  /** The body is read up to this many bytes; the rest is never downloaded. */
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
  /** Which addresses may be reached, checked on the first request and on every redirect. */
  network: NetworkPolicy;
}

export interface FetchedPage {
  ok: true;
  /** Where the last redirect led. */
  url: string;
  status: number;
  contentType: string;
  body: string;
  truncated: boolean;
}

export interface FetchFailure {
  ok: false;
  /** Written for the model. */
  error: string;
  status?: number;
}

const TEXTUAL = /^(text\/|application\/(xhtml\+xml|xml|json|ld\+json|javascript|ecmascript|x-javascript|rss\+xml|atom\+xml)|[^;]*\+(json|xml)\s*(;|$))/i;

/** An http(s) URL, or why it is refused. */
export function parseWebUrl(raw: string): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `invalid URL: ${raw}`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `only http and https URLs can be fetched, not ${url.protocol} (${raw})`;
  return url;
}

/**
 * GETs an http(s) URL: redirects followed one by one (never to another scheme) up to a limit, the
 * body read up to a byte cap, the whole exchange bounded by a timeout. Every failure comes back as a
 * message for the model; nothing throws except the caller's own abort.
 */
export async function fetchPage(raw: string, limits: FetchLimits, signal: AbortSignal): Promise<FetchedPage | FetchFailure> {
  const parsed = parseWebUrl(raw);
  if (typeof parsed === "string") return { ok: false, error: parsed };
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const combined = AbortSignal.any([signal, timeout]);
  let url = parsed;
  try {
    // http, https and tls load with the first fetch, not with the plugin.
    const { guardedGet } = await import("./guarded-request.js");
    for (let redirects = 0; ; redirects += 1) {
      const response = await guardedGet(
        url,
        { "user-agent": limits.userAgent, accept: "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5" },
        combined,
        limits.network,
      );
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel();
        const next = new URL(location, url);
        if (next.protocol !== "http:" && next.protocol !== "https:") {
          return { ok: false, error: `refused the redirect from ${url.href} to ${next.href}: only http and https URLs are followed` };
        }
        if (redirects === limits.maxRedirects) return { ok: false, error: `too many redirects (more than ${limits.maxRedirects}) from ${raw}` };
        url = next;
        continue;
      }
      if (response.status < 200 || response.status > 299) {
        await response.body?.cancel();
        return { ok: false, status: response.status, error: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""} from ${url.href}` };
      }
      const contentType = response.headers.get("content-type") ?? "";
      if (contentType !== "" && !TEXTUAL.test(contentType)) {
        await response.body?.cancel();
        return { ok: false, status: response.status, error: `${url.href} is ${contentType.split(";")[0]}, not a text page; only HTML and text can be read` };
      }
      const { bytes, truncated } = await readCapped(response, limits.maxBytes);
      return { ok: true, url: url.href, status: response.status, contentType, body: decode(bytes, contentType), truncated };
    }
  } catch (error) {
    if (error instanceof NetworkRefusedError) return { ok: false, error: error.message };
    if (timeout.aborted || deadlinePassed(signal)) return { ok: false, error: `timed out after ${limits.timeoutMs} ms fetching ${url.href}` };
    if (signal.aborted) throw error;
    const cause = error instanceof Error ? error.cause : undefined;
    return { ok: false, error: `could not fetch ${url.href}: ${cause ? errorMessage(cause) : errorMessage(error)}` };
  }
}

/** The body up to `maxBytes`; the rest is never downloaded. */
export async function readCapped(response: Response, maxBytes: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!response.body) return { bytes: new Uint8Array(), truncated: false };
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), truncated: false };
    if (size + value.length > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size));
      // Stops the download: the rest of a huge body is never read.
      await reader.cancel();
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(value);
    size += value.length;
  }
}

function decode(bytes: Uint8Array, contentType: string): string {
  const charset = /charset="?([^";\s]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

/** Whether a fetched body is HTML, by its content type or, when it has none, its first bytes. */
export function isHtml(page: FetchedPage): boolean {
  if (/html/i.test(page.contentType)) return true;
  return page.contentType === "" && /^\s*(<!doctype html|<html)/i.test(page.body);
}
