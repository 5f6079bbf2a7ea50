import type { IncomingHttpHeaders } from "node:http";

/**
 * A response's headers, read-only: what providerFetch hands a provider, and what the retry helpers
 * read. A WHATWG `Headers` is one too, so a plugin on `fetch` passes its own.
 */
export interface ResponseHeaders {
  /** The header's value (case-insensitive name), repeated headers joined with ", "; null when absent. */
  get(name: string): string | null;
  has(name: string): boolean;
}

/**
 * Node's parsed headers as ResponseHeaders. Building a WHATWG `Headers` instead would load Node's
 * fetch implementation (undici) into every process that calls a provider.
 */
export class IncomingHeaders implements ResponseHeaders {
  readonly #headers: IncomingHttpHeaders;

  constructor(headers: IncomingHttpHeaders) {
    this.#headers = headers;
  }

  get(name: string): string | null {
    const value = this.#headers[name.toLowerCase()];
    if (value === undefined) return null;
    return typeof value === "string" ? value : value.join(", ");
  }

  has(name: string): boolean {
    return this.#headers[name.toLowerCase()] !== undefined;
  }
}
