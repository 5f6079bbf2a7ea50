import TurndownService from "turndown";

export type PageFormat = "markdown" | "text" | "html";

export interface ConvertedHtml {
  /** The document's `<title>`, when it has one. */
  title?: string;
  text: string;
  /** Absolute http(s) URLs of its links, in document order, without fragments, deduplicated. */
  links: string[];
}

// Elements that carry no readable text.
const DROPPED = ["script", "style", "noscript", "template", "iframe", "svg", "canvas", "object", "embed"] as const;
const DROPPED_NAMES = new Set(DROPPED.map((tag) => tag.toUpperCase()));
const BLOCKS = new Set(
  "ADDRESS ARTICLE ASIDE BLOCKQUOTE BR DD DETAILS DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM H1 H2 H3 H4 H5 H6 HEADER HR LI MAIN NAV OL P PRE SECTION SUMMARY TABLE TR UL".split(" "),
);

type DomNode = TurndownService.Node & { nodeName: string; getAttribute(name: string): string | null };

/**
 * HTML turned into readable Markdown (or plain text) with turndown, which parses with a real DOM
 * rather than stripping tags. Links and images point at absolute URLs, so the model can follow them.
 */
export function convertHtml(html: string, pageUrl: string, format: Exclude<PageFormat, "html">): ConvertedHtml {
  const links = new Set<string>();
  let title: string | undefined;
  const absolute = (href: string | null): string | undefined => {
    if (!href) return undefined;
    try {
      const url = new URL(href, pageUrl);
      return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
    } catch {
      return undefined;
    }
  };
  const noteLink = (node: DomNode) => {
    const url = absolute(node.getAttribute("href"));
    if (url) links.add(url.replace(/#.*$/, ""));
    return url;
  };
  const service = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*" });
  if (format === "markdown") {
    service.remove([...DROPPED]);
    service.addRule("absoluteLinks", {
      filter: (node) => node.nodeName === "A" && (node as DomNode).getAttribute("href") !== null,
      replacement: (content, node) => {
        const url = noteLink(node as DomNode);
        const text = content.trim();
        return url && text ? `[${text}](${url})` : content;
      },
    });
    service.addRule("absoluteImages", {
      filter: ["img"],
      replacement: (_content, node) => {
        const alt = ((node as DomNode).getAttribute("alt") ?? "").replace(/\s+/g, " ").trim();
        const src = absolute((node as DomNode).getAttribute("src"));
        // Inline data: images would flood the page with base64.
        return src ? `![${alt}](${src})` : alt;
      },
    });
  } else {
    service.escape = (text) => text;
    service.addRule("plainText", {
      filter: () => true,
      replacement: (content, node) => {
        const name = (node as DomNode).nodeName;
        if (DROPPED_NAMES.has(name)) return "";
        if (name === "A") noteLink(node as DomNode);
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
