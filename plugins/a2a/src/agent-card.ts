import { A2A_PROTOCOL_VERSION, A2A_VERSION_HEADER, AGENT_CARD_PATH, type AgentCard } from "@a2a-js/sdk";
import { DefaultAgentCardResolver } from "@a2a-js/sdk/client";
import { errorMessage } from "@weft/sdk";

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

/** Fetches and checks an agent card. Fails with an AgentCardError saying why. */
export async function fetchAgentCard(url: URL, fetchImpl: typeof fetch, signal: AbortSignal, timeoutMs: number): Promise<AgentCard> {
  let response: Response;
  let raw: unknown;
  try {
    response = await fetchImpl(url, { headers: { [A2A_VERSION_HEADER]: A2A_PROTOCOL_VERSION, Accept: "application/json" }, signal });
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
  } catch (error) {
    if (error instanceof AgentCardError) throw error;
    if (signal.reason instanceof Error && signal.reason.name === "TimeoutError") throw new AgentCardError(`no answer within ${timeoutMs} ms`);
    throw new AgentCardError(networkReason(error));
  }
  return checkCard(raw);
}

function checkCard(raw: unknown): AgentCard {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new AgentCardError("not an agent card: expected a JSON object");
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

/** fetch says "fetch failed"; the reason (refused, unknown host) is in its cause. */
function networkReason(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof Error ? `${errorMessage(error)} (${cause.message})` : errorMessage(error);
}
