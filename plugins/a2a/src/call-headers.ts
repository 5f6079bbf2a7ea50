import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Headers that belong to one tool call rather than to the agent (W3C trace context), seen by every
 * request the call makes, its resubscribes and polls included, wherever the SDK's transports send them.
 */
const current = new AsyncLocalStorage<Readonly<Record<string, string>>>();

export function withCallHeaders<T>(headers: Readonly<Record<string, string>>, run: () => T): T {
  return Object.keys(headers).length > 0 ? current.run(headers, run) : run();
}

export function callHeaders(): Readonly<Record<string, string>> {
  return current.getStore() ?? {};
}
