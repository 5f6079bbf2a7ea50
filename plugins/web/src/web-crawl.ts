import { defineTool, errorResult, escapeXmlAttribute, Type } from "@weft/sdk";
import { byteSize, type WebLimits } from "./web-limits.js";

const DEFAULT_CRAWL_PAGES = 10;

/**
 * Breadth-first crawl from one URL: each page once (URLs compared without their fragment), at most
 * `max_pages` fetches, and at most `maxBytes` of page text in all.
 */
export function webCrawlTool(name: string, limits: WebLimits) {
  const defaultPages = Math.min(DEFAULT_CRAWL_PAGES, limits.maxPages);
  return defineTool({
    name,
    description:
      `Crawl a website breadth-first from an http(s) URL, following its links, and read every page as Markdown. Fetches at most max_pages pages (default ${defaultPages}, at most ${limits.maxPages}), ` +
      `each once, staying on the starting site unless same_origin is false, and stops at ${byteSize(limits.maxBytes)} of text in all. ` +
      'Answers <crawl url="..." pages="N"> with one <page url="..."> per page read and one <error url="..."> per page that failed; truncated="true" says pages were left unread.',
    input: Type.Object({
      url: Type.String({ description: "The http or https URL to start from" }),
      max_pages: Type.Optional(Type.Integer({ minimum: 1, description: `Most pages to fetch (default ${defaultPages}, at most ${limits.maxPages})` })),
      same_origin: Type.Optional(Type.Boolean({ description: "Follow only links to the starting URL's scheme, host and port (default true)" })),
    }),
    annotations: { readOnlyHint: true, openWorldHint: true },
    timeoutMs: limits.maxPages * (limits.timeoutMs + limits.conversionBudgetMs + 1_000),
    async execute({ url, max_pages, same_origin = true }, ctx) {
      const { fetchPage, parseWebUrl, renderPage } = await import("./page-reading.js");
      const start = parseWebUrl(url);
      if (typeof start === "string") return errorResult(start);
      const maxPages = Math.min(max_pages ?? defaultPages, limits.maxPages);
      const queue = [withoutFragment(start.href)];
      const seen = new Set(queue);
      const parts: string[] = [];
      let fetched = 0;
      let budget = limits.maxBytes;
      let truncated = false;
      while (queue.length > 0 && fetched < maxPages) {
        if (budget <= 0) {
          truncated = true;
          break;
        }
        const next = queue.shift()!;
        fetched += 1;
        ctx.onProgress({ progress: fetched, total: maxPages, message: next });
        const page = await fetchPage(next, { ...limits, maxBytes: budget }, ctx.signal);
        if (!page.ok) {
          parts.push(`<error url="${escapeXmlAttribute(next)}">${page.error}</error>`);
          continue;
        }
        seen.add(withoutFragment(page.url));
        const rendered = await renderPage(page, "markdown", { budgetMs: limits.conversionBudgetMs }, ctx.signal);
        parts.push(rendered.element);
        budget -= Buffer.byteLength(rendered.element);
        for (const link of rendered.links) {
          if (seen.has(link) || (same_origin && new URL(link).origin !== start.origin)) continue;
          seen.add(link);
          queue.push(link);
        }
      }
      if (queue.length > 0 && fetched === maxPages) truncated = true;
      const open = `<crawl url="${escapeXmlAttribute(start.href)}" pages="${fetched}"${truncated ? ' truncated="true"' : ""}>`;
      return { output: [open, ...parts, "</crawl>"].join("\n"), metadata: { pages: fetched } };
    },
  });
}

function withoutFragment(url: string): string {
  return url.replace(/#.*$/, "");
}
