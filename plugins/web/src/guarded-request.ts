import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { Readable } from "node:stream";
import { NetworkRefusedError, addressRefusal, vettedAddress, type NetworkPolicy } from "./network-guard.js";

const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * A GET over node's http/https that connects only to an address the policy allows: the name is
 * resolved and vetted here, the socket is given exactly that address (no second lookup a rebinding
 * name could answer differently), and the address the socket connected to is checked again. The
 * answer is a web `Response`; redirects are not followed (the caller vets each hop).
 */
export async function guardedGet(url: URL, headers: Record<string, string>, signal: AbortSignal, policy: NetworkPolicy): Promise<Response> {
  const address = await vettedAddress(url, policy);
  signal.throwIfAborted();
  policy.onConnect?.(address, url);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    const family = isIP(address);
    if ((options as { all?: boolean }).all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(url, { method: "GET", headers, signal, lookup: pinned }, (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const names = response.rawHeaders;
      const responseHeaders = new Headers();
      for (let index = 0; index + 1 < names.length; index += 2) {
        const name = names[index];
        const value = names[index + 1];
        if (name !== undefined && value !== undefined) responseHeaders.append(name, value);
      }
      const body = NO_BODY.has(status) ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>);
      if (body === null) response.resume();
      resolve(new Response(body, { status, statusText: response.statusMessage ?? "", headers: responseHeaders }));
    });
    request.on("socket", (socket) => {
      socket.once("connect", () => {
        const connected = socket.remoteAddress;
        const refusal = connected === undefined ? "an unknown address" : addressRefusal(connected, url.hostname, policy);
        if (refusal) request.destroy(new NetworkRefusedError(`refused the connection to ${connected} for ${url.href}: it is ${refusal}`));
      });
    });
    request.on("error", reject);
    request.end();
  });
}
