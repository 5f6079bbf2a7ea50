import { A2A_PROTOCOL_VERSION, A2A_VERSION_HEADER, AGENT_CARD_PATH, type AgentCard } from "@a2a-js/sdk";
import { DefaultAgentCardResolver } from "@a2a-js/sdk/client";
import { errorMessage, isRecord } from "@weft/sdk";
import { failureText } from "./transport-failure.js";

/** Why a card could not be loaded; the message is the reason alone, for the warning that names the agent. */
export class AgentCardError extends Error {
  override readonly name = "AgentCardError";
}

// v0.3 cards (still the most deployed) are translated to the v1.0 shape; the transports follow suit.
const resolver = new DefaultAgentCardResolver({ legacyCompat: { enabled: true } });

/** The card's URL: a bare origin (no path) means the well-known location. */
export function cardUrl(card: string): URL {
  let url: URL;
  try {
    url = new URL(card);
  } catch {
    throw new AgentCardError(`"${card}" is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new AgentCardError(`"${card}" is not an http(s) URL`);
  return url.pathname === "/" ? new URL(`/${AGENT_CARD_PATH}`, url) : url;
}

/** Redirects a card fetch follows (each hop's headers decided by its origin). */
const MAX_CARD_REDIRECTS = 5;

/** The card as served (`raw`, what a signature covers), in the v1.0 shape (`card`), and where it was found in the end. */
export interface FetchedCard {
  card: AgentCard;
  raw: AgentCard;
  url: URL;
}

/**
 * Fetches and checks an agent card, following redirects itself so that `fetchImpl` decides the headers
 * of every hop by its origin. Fails with an AgentCardError saying why.
 */
export async function fetchAgentCard(url: URL, fetchImpl: typeof fetch, signal: AbortSignal, timeoutMs: number): Promise<FetchedCard> {
  let raw: unknown;
  let current = url;
  try {
    for (let hops = 0; ; hops++) {
      const response = await fetchImpl(current, { headers: { [A2A_VERSION_HEADER]: A2A_PROTOCOL_VERSION, Accept: "application/json" }, signal });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hops >= MAX_CARD_REDIRECTS) throw new AgentCardError(`more than ${MAX_CARD_REDIRECTS} redirects`);
        current = new URL(location, current);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new AgentCardError(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`);
      }
      const text = await response.text();
      try {
        raw = JSON.parse(text);
      } catch (error) {
        throw new AgentCardError(`the response is not JSON (${errorMessage(error)})`);
      }
      break;
    }
  } catch (error) {
    if (error instanceof AgentCardError) throw error;
    if (signal.reason instanceof Error && signal.reason.name === "TimeoutError") throw new AgentCardError(`no answer within ${timeoutMs} ms`);
    throw new AgentCardError(failureText(error));
  }
  return { card: checkCard(raw), raw: raw as AgentCard, url: current };
}

/** The oldest A2A version whose card and calls weft speaks. */
const OLDEST_VERSION = [0, 3] as const;

/** Refuses a card whose every protocol version is older than 0.3 (v0.3 has one at the top, v1.0 one per interface). */
function checkVersion(raw: Record<string, unknown>): void {
  const interfaces = Array.isArray(raw.supportedInterfaces) ? raw.supportedInterfaces.filter(isRecord) : [];
  const versions = [raw.protocolVersion, ...interfaces.map((entry) => entry.protocolVersion)].filter((version): version is string => typeof version === "string" && version !== "");
  if (versions.length === 0 || versions.some((version) => !olderThanOldest(version))) return;
  throw new AgentCardError(`it speaks A2A ${versions.join(", ")}; weft speaks 0.3 and later`);
}

function olderThanOldest(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map((part) => Number.parseInt(part, 10) || 0);
  return major < OLDEST_VERSION[0] || (major === OLDEST_VERSION[0] && minor < OLDEST_VERSION[1]);
}

function checkCard(raw: unknown): AgentCard {
  if (!isRecord(raw)) throw new AgentCardError("not an agent card: expected a JSON object");
  checkVersion(raw);
  let card: AgentCard;
  try {
    card = resolver.normalizeAgentCard(raw);
  } catch (error) {
    throw new AgentCardError(`not an agent card: ${errorMessage(error)}`);
  }
  if (typeof card.name !== "string" || card.name.trim() === "") throw new AgentCardError("not an agent card: it has no name");
  if (!Array.isArray(card.supportedInterfaces) || card.supportedInterfaces.length === 0) {
    throw new AgentCardError("not an agent card: it lists no supportedInterfaces to call");
  }
  if (!Array.isArray(card.skills) || card.skills.some((skill) => typeof skill?.id !== "string" && typeof skill?.name !== "string")) {
    throw new AgentCardError("not an agent card: skills must be a list of objects with an id");
  }
  return card;
}
