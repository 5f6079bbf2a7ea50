import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "@weft/sdk";
import { createTestKernel, defined } from "@weft/testing";
import webPlugin, { webTools } from "./index.js";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 serving `routes`; 404 for anything else. */
async function startSite(routes: Record<string, Handler>): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const route = routes[new URL(request.url ?? "/", "http://x").pathname];
    if (route) return route(request, response);
    response.writeHead(404, { "content-type": "text/html" }).end("<p>no such page</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function stopSite(site: { server: Server } | undefined): Promise<void> {
  if (!site) return;
  site.server.closeAllConnections();
  await new Promise((resolve) => site.server.close(resolve));
}

const html = (body: string) => (_request: IncomingMessage, response: ServerResponse) =>
  void response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
const redirect = (location: string, status = 302) => (_request: IncomingMessage, response: ServerResponse) =>
  void response.writeHead(status, { location }).end();

const ARTICLE = `<!doctype html><html><head><title>The  Article</title><style>p { color: red }</style><script>alert("x")</script></head>
<body><h1>Heading</h1><p>Some <strong>bold</strong> text and <a href="/other#part">a link</a>.</p>
<ul><li>one</li><li>two</li></ul><pre><code class="language-js">let a = 1;</code></pre>
<img src="pic.png" alt="A picture"><img src="data:image/png;base64,AAAA" alt="inline"><noscript>turn on js</noscript></body></html>`;

describe("native web tools", () => {
  let site: { url: string; server: Server };
  let kernel: Kernel;
  let bodyBytesSent = 0;
  let hugeClosed: Promise<void>;
  const call = (name: string, args: Record<string, unknown>) => kernel.execute({ name, arguments: args });

  beforeAll(async () => {
    let closed!: () => void;
    hugeClosed = new Promise((resolve) => (closed = resolve));
    site = await startSite({
      "/article": html(ARTICLE),
      "/plain": (_q, r) => void r.writeHead(200, { "content-type": "text/plain" }).end("just text\n"),
      "/image": (_q, r) => void r.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([1, 2, 3])),
      "/r1": redirect("/r2", 301),
      "/r2": redirect("article", 307),
      "/to-file": redirect("file:///etc/passwd"),
      ...Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`/loop${i}`, redirect(`/loop${i + 1}`)])),
      "/error": (_q, r) => void r.writeHead(500, { "content-type": "text/plain" }).end("boom"),
      "/slow": () => {
        // Never answers: the fetch must give up on its own.
      },
      "/huge": (_request, response) => {
        response.writeHead(200, { "content-type": "text/plain" });
        const chunk = Buffer.alloc(64 * 1024, "a");
        const total = 50 * 1024 * 1024;
        const write = () => {
          while (bodyBytesSent < total) {
            bodyBytesSent += chunk.length;
            if (!response.write(chunk)) return void response.once("drain", write);
          }
          response.end();
        };
        response.on("close", closed);
        write();
      },
    });
    kernel = await createTestKernel([[webPlugin, { backend: "native", timeoutMs: 3000, maxBytes: 1024 * 1024, allowPrivateNetwork: true }]]);
  });
  afterAll(async () => {
    await kernel?.close();
    await stopSite(site);
  });

  it("registers web_fetch and web_crawl, and no web_search without a search backend", () => {
    expect(kernel.tools.list().map((tool) => [tool.name, tool.source.kind])).toEqual([
      ["web_crawl", "pack"],
      ["web_fetch", "pack"],
    ]);
    expect(defined(kernel.tools.get("web_fetch")).description).toBe(
      'Fetch an http(s) URL and read it. Answers <page url="final URL" title="..."> with the page, then </page>; HTML becomes Markdown (format "markdown", the default), ' +
        'plain text ("text") or stays as it is ("html"). Redirects are followed (at most 5), the body is cut at max_bytes ' +
        '(default and at most 1 MiB; the element then says truncated="true"), and the fetch gives up after 3000 ms. An HTTP error status is an error naming it.',
    );
    expect(defined(kernel.tools.get("web_crawl")).description).toBe(
      "Crawl a website breadth-first from an http(s) URL, following its links, and read every page as Markdown. Fetches at most max_pages pages (default 10, at most 20), " +
        "each once, staying on the starting site unless same_origin is false, and stops at 1 MiB of text in all. " +
        'Answers <crawl url="..." pages="N"> with one <page url="..."> per page read and one <error url="..."> per page that failed; truncated="true" says pages were left unread.',
    );
  });

  it("turns HTML into Markdown with absolute links, dropping scripts and styles", async () => {
    const result = await call("web_fetch", { url: `${site.url}/article` });
    expect(result.output).toBe(
      [
        `<page url="${site.url}/article" title="The Article">`,
        "# Heading",
        "",
        `Some **bold** text and [a link](${site.url}/other#part).`,
        "",
        "-   one",
        "-   two",
        "",
        "```js",
        "let a = 1;",
        "```",
        "",
        `![A picture](${site.url}/pic.png)inline`,
        "</page>",
      ].join("\n"),
    );
    expect(result.metadata).toMatchObject({ status: 200, truncated: false });
  });

  it("answers plain text or the HTML itself on request", async () => {
    const text = await call("web_fetch", { url: `${site.url}/article`, format: "text" });
    expect(text.output).toBe(`<page url="${site.url}/article" title="The Article">\nHeading\n\nSome bold text and a link.\n\none\n\ntwo\n\nlet a = 1;\n</page>`);
    const raw = await call("web_fetch", { url: `${site.url}/article`, format: "html" });
    expect(raw.output).toBe(`<page url="${site.url}/article">\n${ARTICLE}\n</page>`);
    expect((await call("web_fetch", { url: `${site.url}/plain` })).output).toBe(`<page url="${site.url}/plain">\njust text\n</page>`);
  });

  it("follows redirects up to the limit, never to a file: URL", async () => {
    expect((await call("web_fetch", { url: `${site.url}/r1` })).output.split("\n")[0]).toBe(`<page url="${site.url}/article" title="The Article">`);
    expect(await call("web_fetch", { url: `${site.url}/loop0` })).toEqual({ output: `too many redirects (more than 5) from ${site.url}/loop0`, isError: true });
    expect(await call("web_fetch", { url: `${site.url}/to-file` })).toEqual({
      output: `refused the redirect from ${site.url}/to-file to file:///etc/passwd: only http and https URLs are followed`,
      isError: true,
    });
  });

  it("refuses URLs that are not http(s)", async () => {
    expect(await call("web_fetch", { url: "file:///etc/passwd" })).toEqual({ output: "only http and https URLs can be fetched, not file: (file:///etc/passwd)", isError: true });
    expect(await call("web_crawl", { url: "ftp://example.com/" })).toEqual({ output: "only http and https URLs can be fetched, not ftp: (ftp://example.com/)", isError: true });
    expect(await call("web_fetch", { url: "not a url" })).toEqual({ output: "invalid URL: not a url", isError: true });
  });

  it("answers a non-2xx status as an error naming it", async () => {
    expect(await call("web_fetch", { url: `${site.url}/missing` })).toEqual({ output: `HTTP 404 Not Found from ${site.url}/missing`, isError: true, metadata: { status: 404 } });
    expect(await call("web_fetch", { url: `${site.url}/error` })).toEqual({ output: `HTTP 500 Internal Server Error from ${site.url}/error`, isError: true, metadata: { status: 500 } });
    expect(await call("web_fetch", { url: `${site.url}/image` })).toMatchObject({ output: `${site.url}/image is image/png, not a text page; only HTML and text can be read`, isError: true });
  });

  it("gives up on a slow server after its timeout", async () => {
    expect(await call("web_fetch", { url: `${site.url}/slow` })).toEqual({ output: `timed out after 3000 ms fetching ${site.url}/slow`, isError: true });
  });

  it("cuts a 50 MB body at the cap and stops downloading", async () => {
    const result = await call("web_fetch", { url: `${site.url}/huge`, max_bytes: 200_000 });
    const [open, body, close] = result.output.split("\n");
    expect(open).toBe(`<page url="${site.url}/huge" truncated="true">`);
    expect(body).toBe("a".repeat(200_000));
    expect(close).toBe("</page>");
    await hugeClosed;
    expect(bodyBytesSent).toBeLessThan(50 * 1024 * 1024);
    // max_bytes cannot raise the pack's cap.
    const capped = await defined(webTools({ maxBytes: 1000, allowPrivateNetwork: true })[0]).execute({ url: `${site.url}/plain`, max_bytes: 5 }, context());
    expect(capped.output).toBe(`<page url="${site.url}/plain" truncated="true">\njust \n</page>`);
  });
});

describe("web_crawl", () => {
  let site: { url: string; server: Server };
  let other: { url: string; server: Server };
  let kernel: Kernel;
  const crawl = (args: Record<string, unknown>) => kernel.execute({ name: "web_crawl", arguments: args });

  beforeAll(async () => {
    other = await startSite({ "/": html("<title>Elsewhere</title><p>other site</p>") });
    site = await startSite({
      "/": html(`<title>Home</title><p><a href="/a">A</a> <a href="/b#top">B</a> <a href="/a#again">A again</a> <a href="${other.url}/">out</a> <a href="mailto:x@y.z">mail</a></p>`),
      "/a": html(`<title>A</title><p><a href="/">home</a> <a href="/c">C</a> <a href="/gone">gone</a></p>`),
      "/b": html("<title>B</title><p>leaf b</p>"),
      "/c": html("<title>C</title><p>leaf c</p>"),
    });
    kernel = await createTestKernel([[webPlugin, { backend: "native", maxPages: 3, allowPrivateNetwork: true }]]);
  });
  afterAll(async () => {
    await kernel?.close();
    await stopSite(site);
    await stopSite(other);
  });

  it("reads pages breadth-first, each once, within max_pages, staying on the site", async () => {
    const result = await crawl({ url: `${site.url}/`, max_pages: 10 });
    expect(result.output).toBe(
      [
        `<crawl url="${site.url}/" pages="3" truncated="true">`,
        `<page url="${site.url}/" title="Home">\n[A](${site.url}/a) [B](${site.url}/b#top) [A again](${site.url}/a#again) [out](${other.url}/) mail\n</page>`,
        `<page url="${site.url}/a" title="A">\n[home](${site.url}/) [C](${site.url}/c) [gone](${site.url}/gone)\n</page>`,
        `<page url="${site.url}/b" title="B">\nleaf b\n</page>`,
        "</crawl>",
      ].join("\n"),
    );
  });

  it("reports pages that fail and leaves the site only when same_origin is false", async () => {
    const wide = await createTestKernel([[webPlugin, { backend: "native", maxPages: 10, allowPrivateNetwork: true }]]);
    try {
      const result = await wide.execute({ name: "web_crawl", arguments: { url: `${site.url}/`, same_origin: false } });
      const lines = result.output.split("\n").filter((line) => line.startsWith("<page") || line.startsWith("<error") || line.startsWith("<crawl"));
      expect(lines).toEqual([
        `<crawl url="${site.url}/" pages="6">`,
        `<page url="${site.url}/" title="Home">`,
        `<page url="${site.url}/a" title="A">`,
        `<page url="${site.url}/b" title="B">`,
        `<page url="${other.url}/" title="Elsewhere">`,
        `<page url="${site.url}/c" title="C">`,
        `<error url="${site.url}/gone">HTTP 404 Not Found from ${site.url}/gone</error>`,
      ]);
      const narrow = await wide.execute({ name: "web_crawl", arguments: { url: `${site.url}/`, max_pages: 2 } });
      expect(narrow.output.split("\n")[0]).toBe(`<crawl url="${site.url}/" pages="2" truncated="true">`);
    } finally {
      await wide.close();
    }
  });
});

describe("web_search", () => {
  let backend: { url: string; server: Server };
  const seen: { path: string; query: URLSearchParams; token?: string }[] = [];

  beforeAll(async () => {
    const record = (request: IncomingMessage) => {
      const url = new URL(request.url ?? "/", "http://x");
      seen.push({ path: url.pathname, query: url.searchParams, token: request.headers["x-subscription-token"] as string | undefined });
    };
    backend = await startSite({
      "/searx/search": (request, response) => {
        record(request);
        response.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            results: [
              { title: "First & best", url: "https://one.example/", content: "the <b>first</b> result" },
              { title: "Second", url: "https://two.example/?a=1&b=2", content: "second" },
            ],
          }),
        );
      },
      "/brave": (request, response) => {
        record(request);
        response.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({ web: { results: [{ title: "Brave hit", url: "https://brave.example/", description: "found <strong>it</strong>" }] } }),
        );
      },
      // As a misbehaving instance may answer: entries and fields of other types.
      "/odd/search": (_request, response) =>
        void response
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ results: [{ title: null, url: 5, content: ["x"] }, "junk", { title: "Kept", url: "https://kept.example/" }] })),
      "/broken/search": (_request, response) => void response.writeHead(503, { "content-type": "text/plain" }).end("down"),
    });
  });
  afterAll(() => stopSite(backend));

  it("searches a SearXNG instance when its URL is configured", async () => {
    const kernel = await createTestKernel([[webPlugin, { backend: "native", searxngUrl: `${backend.url}/searx` }]]);
    try {
      expect(kernel.tools.list().map((tool) => tool.name)).toEqual(["web_crawl", "web_fetch", "web_search"]);
      expect(defined(kernel.tools.get("web_search")).description).toBe(
        'Search the web (through SearXNG) and get back the top results: <results query="..." count="N"> with one <result url="..." title="...">snippet</result> each. ' +
          "Read a result in full with the fetch tool.",
      );
      const result = await kernel.execute({ name: "web_search", arguments: { query: 'weft "toolkit"' } });
      expect(result.output).toBe(
        [
          '<results query="weft &quot;toolkit&quot;" count="2">',
          '<result url="https://one.example/" title="First &amp; best">the first result</result>',
          '<result url="https://two.example/?a=1&amp;b=2" title="Second">second</result>',
          "</results>",
        ].join("\n"),
      );
      expect(defined(seen.at(-1)).query.get("q")).toBe('weft "toolkit"');
      expect(defined(seen.at(-1)).query.get("format")).toBe("json");
      expect((await kernel.execute({ name: "web_search", arguments: { query: "x", limit: 1 } })).output.split("\n")[0]).toBe('<results query="x" count="1">');
    } finally {
      await kernel.close();
    }
  });

  it("searches a keyed service with its API key", async () => {
    const search = defined(webTools({ braveApiKey: "key-123", braveUrl: `${backend.url}/brave`, tools: { web_fetch: false, web_crawl: false } })[0]);
    expect(search.name).toBe("web_search");
    const result = await search.execute({ query: "hello", limit: 3 }, context());
    expect(result.output).toBe('<results query="hello" count="1">\n<result url="https://brave.example/" title="Brave hit">found it</result>\n</results>');
    expect(seen.at(-1)).toMatchObject({ path: "/brave", token: "key-123" });
    expect(defined(seen.at(-1)).query.get("count")).toBe("3");
  });

  it("reads an answer of unexpected shape field by field: entries that are no object are left out, fields that are no string are empty", async () => {
    const [search] = webTools({ searxngUrl: `${backend.url}/odd`, tools: { web_fetch: false, web_crawl: false } });
    expect((await search?.execute({ query: "x" }, context()))?.output).toBe(
      ['<results query="x" count="2">', '<result url="" title=""></result>', '<result url="https://kept.example/" title="Kept"></result>', "</results>"].join("\n"),
    );
  });

  it("answers a failing backend as an error result", async () => {
    const [search] = webTools({ searxngUrl: `${backend.url}/broken`, tools: { web_fetch: false, web_crawl: false } });
    expect(await search?.execute({ query: "x" }, context())).toEqual({ output: "search failed (SearXNG): HTTP 503 Service Unavailable", isError: true });
  });
});

describe("web pack options", () => {
  it("registers the built-in webfetch alone with builtins: true", async () => {
    const kernel = await createTestKernel([[webPlugin, { builtins: true, searxngUrl: "http://127.0.0.1:9/" }]]);
    try {
      expect(kernel.tools.list().map((tool) => [tool.name, tool.source])).toEqual([["webfetch", { kind: "builtin", id: "@weft/plugin-web" }]]);
    } finally {
      await kernel.close();
    }
    const dropped = await createTestKernel([[webPlugin, { builtins: true, tools: { webfetch: false } }]]);
    expect(dropped.tools.list()).toEqual([]);
    await dropped.close();
  });

  it("takes its tools back out when its handle is closed", async () => {
    const kernel = await createTestKernel();
    const handle = await kernel.use(webPlugin, { backend: "native" });
    expect(kernel.tools.list()).toHaveLength(2);
    await handle.close();
    expect(kernel.tools.list()).toEqual([]);
    await kernel.close();
  });
});

function context() {
  return { signal: new AbortController().signal, callId: "test", onProgress() {} };
}
