import type { AgentCard } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, RestTransportFactory, type Client } from "@a2a-js/sdk/client";
import { errorMessage, sanitizeToolName } from "@weft/sdk";
import type { Logger } from "@weft/sdk";
import { AgentCardError, cardUrl, fetchAgentCard } from "./agent-card.js";
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_CARD_TIMEOUT_MS, type AgentConfig } from "./agent-config.js";
import { expandHeaders } from "./header-expansion.js";
import { fetchWithHeaders } from "./header-fetch.js";

/** An agent's config with its headers expanded: ready to fetch the card. */
export interface PreparedAgent {
  readonly config: AgentConfig;
  /** How warnings and errors name the agent before its card is known: `name (card URL)`, else the card URL. */
  readonly label: string;
  readonly fetch: typeof fetch;
}

/** A connected agent: its card and a client on the interface it prefers. */
export interface RemoteAgent {
  /** Sanitized: the tool name prefix and the tools' source id. */
  readonly name: string;
  readonly card: AgentCard;
  readonly client: Client;
  readonly streaming: boolean;
  readonly timeoutMs: number;
  readonly logger: Logger;
}

/** Expands every agent's headers first, so a missing variable fails before anything is fetched. */
export function prepareAgents(configs: readonly AgentConfig[], env: Record<string, string | undefined>): PreparedAgent[] {
  return configs.map((config) => {
    const label = config.name ? `${config.name} (${config.card})` : config.card;
    return { config, label, fetch: fetchWithHeaders(expandHeaders(config.headers ?? {}, env, label)) };
  });
}

/** Fetches the card and builds the client. Fails with an AgentCardError saying why. */
export async function connectAgent(agent: PreparedAgent, signal: AbortSignal, logger: Logger): Promise<RemoteAgent> {
  const { config } = agent;
  const url = cardUrl(config.card);
  const cardTimeout = config.cardTimeout ?? DEFAULT_CARD_TIMEOUT_MS;
  const card = await fetchAgentCard(url, agent.fetch, AbortSignal.any([signal, AbortSignal.timeout(cardTimeout)]), cardTimeout);
  const transportOptions = { fetchImpl: agent.fetch, legacyCompat: { enabled: true } };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory(transportOptions), new RestTransportFactory(transportOptions)],
    }),
  );
  let client: Client;
  try {
    client = await factory.createFromAgentCard(card);
  } catch (error) {
    throw new AgentCardError(`none of its interfaces can be called: ${errorMessage(error)}`);
  }
  return {
    name: sanitizeToolName(config.name ?? card.name),
    card,
    client,
    streaming: card.capabilities?.streaming === true,
    timeoutMs: config.timeout ?? DEFAULT_CALL_TIMEOUT_MS,
    logger,
  };
}
