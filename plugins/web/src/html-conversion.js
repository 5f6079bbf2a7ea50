// Plain JavaScript (type-checked through JSDoc) because it runs in a worker thread, which Node 20
// loads without a TypeScript step, from src/ in tests as from dist/ once built.
import TurndownService from "turndown";

/** @typedef {"markdown" | "text" | "html"} PageFormat */

/**
 * @typedef {object} ConvertedHtml
 * @property {string} [title] The document's `<title>`, when it has one.
 * @property {string} text
 * @property {string[]} links Absolute http(s) URLs of its links, in document order, without fragments, deduplicated.
 */

/** @typedef {TurndownService.Node & { nodeName: string; getAttribute(name: string): string | null }} DomNode */

// Elements that carry no readable text.
const DROPPED = ["script", "style", "noscript", "template", "iframe", "svg", "canvas", "object", "embed"];
const DROPPED_NAMES = new Set(DROPPED.map((tag) => tag.toUpperCase()));
const BLOCKS = new Set(
  "ADDRESS ARTICLE ASIDE BLOCKQUOTE BR DD DETAILS DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM H1 H2 H3 H4 H5 H6 HEADER HR LI MAIN NAV OL P PRE SECTION SUMMARY TABLE TR UL".split(" "),
);

/**
 * HTML turned into readable Markdown (or plain text) with turndown, which parses with a real DOM
 * rather than stripping tags. Links and images point at absolute URLs, so the model can follow them.
 * It runs unbounded: remote pages go through `convertHtmlBounded`, which limits nesting first and
 * runs this in a worker the deadline can stop.
 * @param {string} html
 * @param {string} pageUrl
 * @param {Exclude<PageFormat, "html">} format
 * @returns {ConvertedHtml}
 */
export function convertHtml(html, pageUrl, format) {
  /** @type {Set<string>} */
  const links = new Set();
  /** @type {string | undefined} */
  let title;
  /** @param {string | null} href */
  const absolute = (href) => {
    if (!href) return undefined;
    try {
      const url = new URL(href, pageUrl);
      return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
    } catch {
      return undefined;
    }
  };
  /** @param {DomNode} node */
  const noteLink = (node) => {
    const url = absolute(node.getAttribute("href"));
    if (url) links.add(url.replace(/#.*$/, ""));
    return url;
  };
  const service = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*" });
  if (format === "markdown") {
    service.remove(/** @type {TurndownService.Filter} */ (DROPPED));
    service.addRule("absoluteLinks", {
      filter: (node) => node.nodeName === "A" && /** @type {DomNode} */ (node).getAttribute("href") !== null,
      replacement: (content, node) => {
        const url = noteLink(/** @type {DomNode} */ (node));
        const text = content.trim();
        return url && text ? `[${text}](${url})` : content;
      },
    });
    service.addRule("absoluteImages", {
      filter: ["img"],
      replacement: (_content, node) => {
        const alt = (/** @type {DomNode} */ (node).getAttribute("alt") ?? "").replace(/\s+/g, " ").trim();
        const src = absolute(/** @type {DomNode} */ (node).getAttribute("src"));
        // Inline data: images would flood the page with base64.
        return src ? `![${alt}](${src})` : alt;
      },
    });
  } else {
    service.escape = (text) => text;
    service.addRule("plainText", {
      filter: () => true,
      replacement: (content, node) => {
        const name = /** @type {DomNode} */ (node).nodeName;
        if (DROPPED_NAMES.has(name)) return "";
        if (name === "A") noteLink(/** @type {DomNode} */ (node));
        if (name === "TD" || name === "TH") return `${content} `;
        return BLOCKS.has(name) ? `\n\n${content}\n\n` : content;
      },
    });
  }
  // Added last: turndown tries the latest rule first, so the title is caught before the catch-all text rule.
  service.addRule("title", {
    filter: ["title"],
    replacement: (content) => {
      title ??= content.replace(/\s+/g, " ").trim() || undefined;
      return "";
    },
  });
  const text = service.turndown(html).replace(/\n{3,}/g, "\n\n").trim();
  return { title, text, links: [...links] };
}
