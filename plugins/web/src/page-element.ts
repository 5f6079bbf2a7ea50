import { escapeXmlAttribute } from "@weft/sdk";
import { convertHtml, type PageFormat } from "./html-conversion.js";
import { isHtml, type FetchedPage } from "./fetch-page.js";

export interface RenderedPage {
  /** `<page url="..." title="..." truncated="true">` + the text + `</page>`. */
  element: string;
  /** Links of an HTML page converted to markdown or text (absolute, no fragment); empty otherwise. */
  links: string[];
}

/** A fetched page as the model reads it, HTML turned into `format`. */
export function renderPage(page: FetchedPage, format: PageFormat): RenderedPage {
  const converted = isHtml(page) && format !== "html" ? convertHtml(page.body, page.url, format) : undefined;
  const links = converted?.links ?? [];
  const title = converted?.title;
  const text = converted?.text ?? page.body;
  const attributes = [`url="${escapeXmlAttribute(page.url)}"`];
  if (title) attributes.push(`title="${escapeXmlAttribute(title)}"`);
  if (page.truncated) attributes.push('truncated="true"');
  const body = text === "" || text.endsWith("\n") ? text : `${text}\n`;
  return { element: `<page ${attributes.join(" ")}>\n${body}</page>`, links };
}
