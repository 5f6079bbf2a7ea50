import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Type } from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_API_VERSION, defineTool, definePlugin, type Kernel } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import { convertHtmlBounded } from "./bounded-conversion.js";
import webPlugin from "./index.js";

const DEPTH = 200_000;
const DEEP_PAGE = `<html><head><title>Deep</title></head><body>${"<div>".repeat(DEPTH)}bottom${"</div>".repeat(DEPTH)}</body></html>`;

const echo = definePlugin({
  meta: { name: "echo-pack", version: "1.0.0", api: PLUGIN_API_VERSION },
  setup(api) {
    api.tools.add(defineTool({ name: "echo", description: "Echo", input: Type.Object({ text: Type.String() }), execute: ({ text }) => ({ output: text }) }));
  },
});

describe("bounded HTML conversion", () => {
  let server: Server;
  let url: string;
  let kernel: Kernel;

  beforeAll(async () => {
    server = createServer((_request, response) => void response.writeHead(200, { "content-type": "text/html" }).end(DEEP_PAGE));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/deep`;
    kernel = await createTestKernel([echo, [webPlugin, { backend: "native", allowPrivateNetwork: true, maxBytes: 4 * 1024 * 1024 }]]);
  });
  afterAll(async () => {
    await kernel?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("reads a 200 000-deep page, bounded, while another call in the same process completes first", async () => {
    const order: string[] = [];
    const settled = (name: string) => <T>(result: T): T => {
      order.push(name);
      return result;
    };
    const page = kernel.execute({ name: "web_fetch", arguments: { url } }).then(settled("page"));
    const other = kernel.execute({ name: "echo", arguments: { text: "still here" } }).then(settled("echo"));
    const [pageResult, otherResult] = await Promise.all([page, other]);
    expect(otherResult).toEqual({ output: "still here" });
    expect(order).toEqual(["echo", "page"]);
    expect(pageResult.isError).toBeUndefined();
    expect(pageResult.output).toBe(`<page url="${url}" title="Deep">\nbottom\n</page>`);
  });

  it("answers what was converted and why it stopped when the budget runs out", async () => {
    const budgeted = await createTestKernel([[webPlugin, { backend: "native", allowPrivateNetwork: true, maxBytes: 4 * 1024 * 1024, conversionBudgetMs: 1 }]]);
    try {
      const result = await budgeted.execute({ name: "web_fetch", arguments: { url } });
      expect(result.output).toBe(
        `<page url="${url}" truncated="true">\n` +
          "[conversion stopped after 1 ms: the page is too large or too complex to convert in time; the text above is what was converted]\n</page>",
      );
    } finally {
      await budgeted.close();
    }
  });

  it("stops the worker when the call is aborted", async () => {
    const controller = new AbortController();
    const converting = convertHtmlBounded(DEEP_PAGE, url, "markdown", { budgetMs: 60_000 }, controller.signal);
    controller.abort(new Error("caller gave up"));
    await expect(converting).rejects.toThrow("caller gave up");
  });

  it("converts in parts a page larger than one chunk and joins them as one document", async () => {
    const section = (n: number) => `<section><h2>Part ${n}</h2><p>${"word ".repeat(4000)}<a href="/p${n}">next</a></p></section>`;
    const html = `<html><body><main>${[1, 2, 3, 4].map(section).join("")}</main></body></html>`;
    const converted = await convertHtmlBounded(html, "http://example.test/", "markdown", { budgetMs: 30_000 }, new AbortController().signal);
    expect(converted.links).toEqual(["http://example.test/p1", "http://example.test/p2", "http://example.test/p3", "http://example.test/p4"]);
    expect(converted.text.split("\n\n").filter((line) => line.startsWith("## "))).toEqual(["## Part 1", "## Part 2", "## Part 3", "## Part 4"]);
    expect(converted.stopped).toBeUndefined();
  });
});
