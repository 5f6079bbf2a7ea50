import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolContext } from "@weft/sdk";
import { webTools } from "./index.js";

const context = () => ({ signal: new AbortController().signal, callId: "c1", onProgress() {} }) as unknown as ToolContext;

describe("SSRF guard", () => {
  let server: Server;
  let origin: string;
  const connects: string[] = [];
  const lookups: string[] = [];
  // Names resolve through this stand-in resolver: no real DNS, and no traffic to private addresses.
  const resolve = async (host: string) => {
    lookups.push(host);
    const table: Record<string, string> = { "metadata.test": "169.254.169.254", "intranet.test": "10.1.2.3", "mapped.test": "::ffff:127.0.0.1" };
    return [{ address: table[host] ?? "203.0.113.9", family: table[host]?.includes(":") ? 6 : 4 }];
  };
  const fetchWith = (options: Parameters<typeof webTools>[0]) => {
    const tool = webTools({ ...options, network: { resolve, onConnect: (address) => void connects.push(address) } }).find((t) => t.name === "web_fetch");
    if (!tool) throw new Error("no web_fetch");
    return (url: string) => tool.execute({ url }, context());
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === "/to-metadata") return void response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
      if (request.url === "/to-intranet") return void response.writeHead(302, { location: "http://intranet.test/" }).end();
      response.writeHead(200, { "content-type": "text/plain" }).end("local page\n");
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });

  it("refuses loopback, private and link-local addresses by default, naming the option, without connecting", async () => {
    const fetch = fetchWith({});
    connects.length = 0;
    expect(await fetch(`${origin}/`)).toEqual({
      output:
        `refused to connect to 127.0.0.1, a loopback address, for ${origin}/: the web tools do not reach loopback, private, link-local, unique-local or multicast addresses; ` +
        `allow it with allowPrivateNetwork: true or allowHosts: ["127.0.0.1"] in the web plugin's options`,
      isError: true,
    });
    expect((await fetch("http://10.0.0.1/")).output).toMatch(/^refused to connect to 10\.0\.0\.1, a private address, /);
    expect((await fetch("http://169.254.169.254/latest/meta-data/")).output).toMatch(/^refused to connect to 169\.254\.169\.254, a link-local address, /);
    expect((await fetch("http://[::1]/")).output).toMatch(/^refused to connect to ::1, a loopback address, /);
    expect((await fetch("http://metadata.test/")).output).toMatch(/^refused to connect to metadata\.test \(169\.254\.169\.254\), a link-local address, /);
    expect((await fetch("http://intranet.test/")).output).toMatch(/^refused to connect to intranet\.test \(10\.1\.2\.3\), a private address, /);
    expect((await fetch("http://mapped.test/")).output).toMatch(/^refused to connect to mapped\.test \(::ffff:127\.0\.0\.1\), a loopback address, /);
    expect(connects).toEqual([]);
    expect(lookups).toEqual(expect.arrayContaining(["metadata.test", "intranet.test"]));
  });

  it("checks every redirect: an allowed page redirecting to private addresses is refused before connecting there", async () => {
    const fetch = fetchWith({ allowHosts: ["127.0.0.1"] });
    connects.length = 0;
    expect((await fetch(`${origin}/to-metadata`)).output).toMatch(/^refused to connect to 169\.254\.169\.254, a link-local address, for http:\/\/169\.254\.169\.254\/latest\/meta-data\/: /);
    expect((await fetch(`${origin}/to-intranet`)).output).toMatch(/^refused to connect to intranet\.test \(10\.1\.2\.3\), a private address, /);
    expect(connects).toEqual(["127.0.0.1", "127.0.0.1"]);
  });

  it("reaches private addresses with allowPrivateNetwork, or with the host or its range allowed", async () => {
    for (const options of [{ allowPrivateNetwork: true }, { allowHosts: ["127.0.0.1"] }, { allowHosts: ["127.0.0.0/8"] }]) {
      expect((await fetchWith(options)(`${origin}/`)).output).toBe(`<page url="${origin}/">\nlocal page\n</page>`);
    }
    expect((await fetchWith({ allowHosts: ["10.0.0.0/8"] })(`${origin}/`)).isError).toBe(true);
  });
});
