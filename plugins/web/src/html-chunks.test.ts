import { describe, expect, it } from "vitest";
import { chunkHtml } from "./html-chunks.js";

const depthOf = (html: string) => {
  let depth = 0;
  let deepest = 0;
  for (const tag of html.matchAll(/<(\/?)div>/g)) {
    depth += tag[1] === "/" ? -1 : 1;
    deepest = Math.max(deepest, depth);
  }
  return deepest;
};

describe("chunkHtml", () => {
  it("flattens elements nested past the limit and keeps their text", () => {
    const deep = `${"<div>".repeat(200_000)}deep text${"</div>".repeat(200_000)}`;
    const { chunks } = chunkHtml(deep, { maxDepth: 256 });
    const out = chunks.join("");
    expect(depthOf(out)).toBe(256);
    expect(out).toBe(`${"<div>".repeat(256)}deep text${"</div>".repeat(256)}`);
  });

  it("does not count unclosed paragraphs and list items as nesting", () => {
    const page = `<ul>${"<li>item".repeat(1000)}</ul>${"<p>para".repeat(1000)}`;
    const { chunks } = chunkHtml(page, { maxDepth: 4 });
    expect(chunks.join("")).toBe(`<ul>${"<li>item</li>".repeat(999)}<li>item</li></ul>${"<p>para</p>".repeat(999)}<p>para`);
  });

  it("keeps raw text whole, drops comments and stray end tags", () => {
    const { chunks } = chunkHtml('<p>a</span><!-- <div> --><script>if (a <div> b) "</p>"</script>b</p>');
    expect(chunks).toEqual(['<p>a<script>if (a <div> b) "</p>"</script>b</p>']);
  });

  it("cuts chunks only where wrapper elements alone are open", () => {
    const row = "<tr><td>cell</td></tr>";
    const page = `<html><body><div><table>${row.repeat(100)}</table><p>after</p><p>end</p></div></body></html>`;
    const { chunks } = chunkHtml(page, { chunkChars: 10 });
    expect(chunks).toEqual([`<html><body><div><table>${row.repeat(100)}</table>`, "<p>after</p>", "<p>end</p>", "</div></body>", "</html>"]);
  });
});
