// Plain JavaScript (type-checked through JSDoc): it runs in the conversion worker, see html-conversion.js.

/** Elements nested deeper than this lose their tags (their text stays): DOM parsers slow down quadratically with depth. */
const MAX_HTML_DEPTH = 256;
/** A chunk is closed at the first safe boundary past this many characters. */
const HTML_CHUNK_CHARS = 64 * 1024;

const VOID = new Set("area base br col embed hr img input keygen link meta param source track wbr".split(" "));
// Their content is text up to the matching end tag, never markup.
const RAW_TEXT = new Set("script style textarea title xmp noscript iframe noembed noframes plaintext".split(" "));
// Opening one of these closes an open one of the same group, as the HTML parser does; without it
// a page of unclosed <p> or <li> would look ever deeper.
const SELF_CLOSING_GROUPS = /** @type {Record<string, string[]>} */ ({
  p: ["p"],
  li: ["li"],
  dt: ["dt", "dd"],
  dd: ["dt", "dd"],
  option: ["option"],
  tr: ["tr", "td", "th"],
  td: ["td", "th"],
  th: ["td", "th"],
});
// A chunk may end while only these are open: splitting inside them changes nothing in the Markdown.
const TRANSPARENT = new Set("html body div main article section header footer nav aside center form span".split(" "));

const TAG = /<(\/?)([a-zA-Z][^\s/>]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/y;
const RAW_TEXT_END = new Map([...RAW_TEXT].map((name) => [name, new RegExp(`</${name}`, "gi")]));
const COMMENT_END = "-->";

/**
 * @typedef {object} HtmlChunks
 * @property {string[]} chunks The document in pieces that convert independently, in order.
 */

/**
 * One linear pass over the markup: elements nested past `maxDepth` lose their tags (the text is kept),
 * and the document is cut into chunks at boundaries where only wrapper elements are open, so a
 * conversion can hand over what it has done when its time runs out.
 * @param {string} html
 * @param {{ maxDepth?: number, chunkChars?: number }} [limits]
 * @returns {HtmlChunks}
 */
export function chunkHtml(html, limits = {}) {
  const maxDepth = limits.maxDepth ?? MAX_HTML_DEPTH;
  const chunkChars = limits.chunkChars ?? HTML_CHUNK_CHARS;
  const open = new OpenElements();
  /** @type {string[]} */
  const chunks = [];
  /** @type {string[]} */
  let pieces = [];
  let size = 0;
  /** @param {string} text */
  const emit = (text) => {
    pieces.push(text);
    size += text.length;
  };
  const maybeCut = () => {
    if (size < chunkChars || open.opaque > 0) return;
    chunks.push(pieces.join(""));
    pieces = [];
    size = 0;
  };
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf("<", at);
    if (lt < 0) {
      emit(html.slice(at));
      break;
    }
    if (lt > at) emit(html.slice(at, lt));
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf(COMMENT_END, lt + 4);
      at = end < 0 ? html.length : end + COMMENT_END.length;
      continue;
    }
    TAG.lastIndex = lt;
    const tag = TAG.exec(html);
    if (!tag) {
      // A `<` that starts no tag (a doctype, `a < b`) is passed through as it is.
      emit("<");
      at = lt + 1;
      continue;
    }
    at = TAG.lastIndex;
    const name = (tag[2] ?? "").toLowerCase();
    if (tag[1] === "/") {
      // A stray end tag is dropped, as the parser ignores it; the elements it closes are closed.
      for (const element of open.closeTo(name)) if (element.kept) emit(`</${element.name}>`);
      maybeCut();
      continue;
    }
    const top = open.top();
    if (top && SELF_CLOSING_GROUPS[name]?.includes(top.name)) {
      open.pop();
      if (top.kept) emit(`</${top.name}>`);
    }
    const rawEnd = RAW_TEXT_END.get(name);
    if (rawEnd) {
      rawEnd.lastIndex = at;
      const end = rawEnd.exec(html)?.index ?? html.length;
      // Raw text never nests, so its element is kept (or dropped) whole.
      if (open.depth < maxDepth) emit(`${tag[0]}${html.slice(at, end)}</${name}>`);
      const close = html.indexOf(">", end);
      at = close < 0 ? html.length : close + 1;
      continue;
    }
    if (VOID.has(name)) {
      emit(tag[0]);
      continue;
    }
    const kept = open.depth < maxDepth;
    if (kept) emit(tag[0]);
    open.push({ name, kept });
  }
  if (pieces.length > 0) chunks.push(pieces.join(""));
  return { chunks };
}

/**
 * The stack of open elements, with what keeps every step O(1) amortized on hostile input: a count per
 * name (an end tag for nothing open is dropped without a scan) and a count of non-wrapper elements.
 */
class OpenElements {
  /** @type {{ name: string, kept: boolean }[]} */
  stack = [];
  /** @type {Map<string, number>} */
  counts = new Map();
  opaque = 0;

  get depth() {
    return this.stack.length;
  }

  top() {
    return this.stack[this.stack.length - 1];
  }

  /** @param {{ name: string, kept: boolean }} element */
  push(element) {
    this.stack.push(element);
    this.counts.set(element.name, (this.counts.get(element.name) ?? 0) + 1);
    if (!TRANSPARENT.has(element.name)) this.opaque += 1;
  }

  pop() {
    const element = this.stack.pop();
    if (element) {
      this.counts.set(element.name, (this.counts.get(element.name) ?? 1) - 1);
      if (!TRANSPARENT.has(element.name)) this.opaque -= 1;
    }
    return element;
  }

  /**
   * Closes the innermost open `name` and everything opened inside it, innermost first; nothing when none is open.
   * @param {string} name
   */
  closeTo(name) {
    /** @type {{ name: string, kept: boolean }[]} */
    const closed = [];
    if (!this.counts.get(name)) return closed;
    for (let element = this.pop(); element; element = this.pop()) {
      closed.push(element);
      if (element.name === name) break;
    }
    return closed;
  }
}
