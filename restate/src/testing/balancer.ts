import { createServer, request } from "node:http";

export interface Balancer {
  url: string;
  close(): Promise<void>;
}

/**
 * A round-robin HTTP/1.1 balancer in front of worker processes, as a deployment runs several
 * workers: each request (one invocation step) goes to the next worker.
 */
export async function startBalancer(upstreams: string[]): Promise<Balancer> {
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    const target = new URL(incoming.url ?? "/", upstreams[next++ % upstreams.length]);
    const forwarded = request(target, { method: incoming.method, headers: incoming.headers }, (response) => {
      outgoing.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(outgoing);
    });
    forwarded.on("error", () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
