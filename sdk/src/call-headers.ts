import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Headers that belong to one tool call rather than to its source (W3C trace context): a tool source
 * runs the call inside `withCallHeaders`, and its HTTP layer adds `callHeaders()` to every request the
 * call makes, however deep in a protocol SDK's transport that request is sent.
 */
const current = new AsyncLocalStorage<Readonly<Record<string, string>>>();

export function withCallHeaders<T>(headers: Readonly<Record<string, string>>, run: () => T): T {
  return Object.keys(headers).length > 0 ? current.run(headers, run) : run();
}

export function callHeaders(): Readonly<Record<string, string>> {
  return current.getStore() ?? {};
}
