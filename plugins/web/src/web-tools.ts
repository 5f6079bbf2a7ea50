import { keepTools, type Tool } from "@weft/sdk";
import { webCrawlTool } from "./web-crawl.js";
import { webFetchTool } from "./web-fetch.js";
import type { NetworkPolicy } from "./network-guard.js";
import { DEFAULT_WEB_LIMITS, type WebLimits } from "./web-limits.js";
import { webSearchTool, type SearchBackend } from "./web-search.js";

export const WEB_PLUGIN_NAME = "@weft/plugin-web";

export interface WebToolsOptions extends Partial<Omit<WebLimits, "network">> {
  /** Let the tools reach loopback, private, link-local, unique-local and multicast addresses. */
  allowPrivateNetwork?: boolean;
  /** Hosts and CIDR ranges the tools may reach although private (`localhost`, `10.1.0.0/16`). */
  allowHosts?: string[];
  /** Overrides of the network policy (tests give a resolver and observe connections). */
  network?: Partial<NetworkPolicy>;
  /** The built-in `webfetch` alone instead of the native pack tools. */
  builtins?: boolean;
  /** Tool name → false drops it. */
  tools?: Record<string, boolean>;
  /** A SearXNG instance's base URL; enables `web_search`. */
  searxngUrl?: string;
  /** A Brave Search API key; enables `web_search` when no SearXNG URL is given. */
  braveApiKey?: string;
  /** The Brave Search endpoint (tests and proxies). */
  braveUrl?: string;
}

/** The search backend the options configure, if any. */
export function searchBackend(options: WebToolsOptions): SearchBackend | undefined {
  if (options.searxngUrl) return { kind: "searxng", url: options.searxngUrl };
  if (options.braveApiKey) return { kind: "brave", apiKey: options.braveApiKey, url: options.braveUrl };
  return undefined;
}

/**
 * The native web tools for code use: `web_fetch`, `web_crawl` and, when a search backend is
 * configured, `web_search`; or the built-in `webfetch` alone with `builtins: true`.
 */
export function webTools(options: WebToolsOptions = {}): Tool[] {
  const limits: WebLimits = {
    timeoutMs: options.timeoutMs ?? DEFAULT_WEB_LIMITS.timeoutMs,
    maxBytes: options.maxBytes ?? DEFAULT_WEB_LIMITS.maxBytes,
    maxRedirects: options.maxRedirects ?? DEFAULT_WEB_LIMITS.maxRedirects,
    maxPages: options.maxPages ?? DEFAULT_WEB_LIMITS.maxPages,
    userAgent: options.userAgent ?? DEFAULT_WEB_LIMITS.userAgent,
    conversionBudgetMs: options.conversionBudgetMs ?? DEFAULT_WEB_LIMITS.conversionBudgetMs,
    network: { allowPrivateNetwork: options.allowPrivateNetwork ?? false, allowHosts: options.allowHosts ?? [], ...options.network },
  };
  if (options.builtins) return keepTools([{ ...webFetchTool("webfetch", limits), source: { kind: "builtin", id: WEB_PLUGIN_NAME } }], options.tools);
  const backend = searchBackend(options);
  const tools: Tool[] = [webFetchTool("web_fetch", limits), webCrawlTool("web_crawl", limits)];
  if (backend) tools.push(webSearchTool("web_search", backend, limits));
  return keepTools(tools, options.tools);
}
