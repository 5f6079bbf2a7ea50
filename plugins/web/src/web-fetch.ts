import { defineTool, errorResult, Type } from "@weft/sdk";
import { byteSize, type WebLimits } from "./web-limits.js";

/** Fetches one page; the implementation behind both `web_fetch` and the built-in `webfetch`. */
export function webFetchTool(name: string, limits: WebLimits) {
  return defineTool({
    name,
    description:
      'Fetch an http(s) URL and read it. Answers <page url="final URL" title="..."> with the page, then </page>; HTML becomes Markdown (format "markdown", the default), ' +
      `plain text ("text") or stays as it is ("html"). Redirects are followed (at most ${limits.maxRedirects}), the body is cut at max_bytes ` +
      `(default and at most ${byteSize(limits.maxBytes)}; the element then says truncated="true"), and the fetch gives up after ${limits.timeoutMs} ms. An HTTP error status is an error naming it.`,
    input: Type.Object({
      url: Type.String({ description: "The http or https URL to fetch" }),
      format: Type.Optional(Type.Union([Type.Literal("markdown"), Type.Literal("text"), Type.Literal("html")], { description: "How to return an HTML page (default markdown)" })),
      max_bytes: Type.Optional(Type.Integer({ minimum: 1, description: `Most bytes of the body to read (default ${limits.maxBytes})` })),
    }),
    annotations: { readOnlyHint: true, openWorldHint: true },
    // Its whole budget: the fetch, then the conversion of what came back.
    timeoutMs: limits.timeoutMs + limits.conversionBudgetMs,
    async execute({ url, format = "markdown", max_bytes }, ctx) {
      const maxBytes = Math.min(max_bytes ?? limits.maxBytes, limits.maxBytes);
      const { fetchPage, renderPage } = await import("./page-reading.js");
      const page = await fetchPage(url, { ...limits, maxBytes }, ctx.signal);
      if (!page.ok) return errorResult(page.error, page.status === undefined ? undefined : { status: page.status });
      const rendered = await renderPage(page, format, { budgetMs: limits.conversionBudgetMs }, ctx.signal);
      return { output: rendered.element, metadata: { url: page.url, status: page.status, contentType: page.contentType, truncated: page.truncated } };
    },
  });
}
