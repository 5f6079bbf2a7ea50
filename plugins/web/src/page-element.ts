import { escapeXmlAttribute } from "@weft/sdk";
import { convertHtmlBounded, type ConversionLimits } from "./bounded-conversion.js";
import type { PageFormat } from "./html-conversion.js";
import { isHtml, type FetchedPage } from "./fetch-page.js";

export interface RenderedPage {
  /** `<page url="..." title="..." truncated="true">` + the text + `</page>`. */
  element: string;
  /** Links of an HTML page converted to markdown or text (absolute, no fragment); empty otherwise. */
  links: string[];
}

/**
 * A fetched page as the model reads it, HTML turned into `format` within the conversion budget; a
 * conversion cut short ends with a `[...]` line saying why, and the element says truncated="true".
 */
export async function renderPage(page: FetchedPage, format: PageFormat, limits: ConversionLimits, signal: AbortSignal): Promise<RenderedPage> {
  const converted = isHtml(page) && format !== "html" ? await convertHtmlBounded(page.body, page.url, format, limits, signal) : undefined;
  const links = converted?.links ?? [];
  const title = converted?.title;
  const text = converted?.text ?? page.body;
  const attributes = [`url="${escapeXmlAttribute(page.url)}"`];
  if (title) attributes.push(`title="${escapeXmlAttribute(title)}"`);
  if (page.truncated || converted?.stopped) attributes.push('truncated="true"');
  const lines = [text === "" || text.endsWith("\n") ? text : `${text}\n`];
  if (converted?.stopped) lines.push(`[${converted.stopped}]\n`);
  return { element: `<page ${attributes.join(" ")}>\n${lines.join("")}</page>`, links };
}
