import { deadlinePassed, defineTool, errorMessage, errorResult, escapeXmlAttribute, isRecord, Type } from "@weft/sdk";
import type { WebLimits } from "./web-limits.js";

const BRAVE_SEARCH_URL = "https://api.search.brave.com/res/v1/web/search";
const DEFAULT_SEARCH_RESULTS = 10;
/** A search answer is read up to this many bytes: results are small, a flood is not read. */
const MAX_SEARCH_RESPONSE_BYTES = 1024 * 1024;
// Snippets are converted on the event loop, so each is cut first: a short, depth-limited input bounds the work.
const MAX_SNIPPET_CHARS = 2000;

/** Where `web_search` sends queries: a SearXNG instance, or a keyed service (Brave Search API). */
export type SearchBackend = { kind: "searxng"; url: string } | { kind: "brave"; apiKey: string; url?: string };

interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** Web search through the configured backend; registered only when there is one. */
export function webSearchTool(name: string, backend: SearchBackend, limits: Pick<WebLimits, "timeoutMs" | "userAgent">) {
  const service = backend.kind === "searxng" ? "SearXNG" : "Brave Search";
  return defineTool({
    name,
    description:
      `Search the web (through ${service}) and get back the top results: <results query="..." count="N"> with one <result url="..." title="...">snippet</result> each. ` +
      "Read a result in full with the fetch tool.",
    input: Type.Object({
      query: Type.String({ description: "What to search for" }),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: `Most results to return (default ${DEFAULT_SEARCH_RESULTS})` })),
    }),
    annotations: { readOnlyHint: true, openWorldHint: true },
    timeoutMs: limits.timeoutMs,
    async execute({ query, limit = DEFAULT_SEARCH_RESULTS }, ctx) {
      const timeout = AbortSignal.timeout(limits.timeoutMs);
      let hits: SearchHit[];
      try {
        hits = await search(backend, query, limit, AbortSignal.any([ctx.signal, timeout]), limits.userAgent);
      } catch (error) {
        if (timeout.aborted || deadlinePassed(ctx.signal)) return errorResult(`search timed out after ${limits.timeoutMs} ms (${service})`);
        if (ctx.signal.aborted) throw error;
        return errorResult(`search failed (${service}): ${errorMessage(error)}`);
      }
      const shown = hits.slice(0, limit);
      const lines = shown.map((hit) => `<result url="${escapeXmlAttribute(hit.url)}" title="${escapeXmlAttribute(hit.title)}">${hit.snippet}</result>`);
      return { output: [`<results query="${escapeXmlAttribute(query)}" count="${shown.length}">`, ...lines, "</results>"].join("\n") };
    },
  });
}

async function search(backend: SearchBackend, query: string, limit: number, signal: AbortSignal, userAgent: string): Promise<SearchHit[]> {
  const plain = await plainText();
  if (backend.kind === "searxng") {
    const url = new URL("search", backend.url.endsWith("/") ? backend.url : `${backend.url}/`);
    url.searchParams.set("q", query);
    url.searchParams.set("format", "json");
    const body = await getJson(url, { "user-agent": userAgent }, signal);
    return searchHits(isRecord(body) ? body.results : undefined, "content", plain);
  }
  const url = new URL(backend.url ?? BRAVE_SEARCH_URL);
  url.searchParams.set("q", query);
  url.searchParams.set("count", String(limit));
  const body = await getJson(url, { "x-subscription-token": backend.apiKey, "user-agent": userAgent }, signal);
  return searchHits(isRecord(body) && isRecord(body.web) ? body.web.results : undefined, "description", plain);
}

/** A service's result list: an entry that is no object is left out, a field that is no string is empty. */
function searchHits(results: unknown, snippetField: "content" | "description", plain: (html: string | undefined) => string): SearchHit[] {
  if (!Array.isArray(results)) return [];
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  return results.filter(isRecord).map((hit) => ({ title: plain(text(hit.title)), url: text(hit.url) ?? "", snippet: plain(text(hit[snippetField])) }));
}

async function getJson(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<unknown> {
  const response = await fetch(url, { headers: { accept: "application/json", ...headers }, signal });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`);
  }
  const { readCapped } = await import("./page-reading.js");
  const { bytes, truncated } = await readCapped(response, MAX_SEARCH_RESPONSE_BYTES);
  if (truncated) throw new Error(`the answer is larger than ${MAX_SEARCH_RESPONSE_BYTES} bytes`);
  return JSON.parse(new TextDecoder().decode(bytes));
}

// Snippets carry highlighting markup (<strong>) and entities. turndown and its DOM (~50 modules) load
// with the first search, not with the plugin.
async function plainText(): Promise<(html: string | undefined) => string> {
  const [{ convertHtml }, { chunkHtml }] = await Promise.all([import("./html-conversion.js"), import("./page-reading.js")]);
  return (html) => {
    if (!html) return "";
    const bounded = chunkHtml(html.slice(0, MAX_SNIPPET_CHARS)).chunks.join("");
    return convertHtml(bounded, "http://localhost/", "text").text.replace(/\s+/g, " ");
  };
}
