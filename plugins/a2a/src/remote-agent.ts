import type { AgentCard } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, RestTransportFactory, type Client } from "@a2a-js/sdk/client";
import { WeftError, errorMessage, sanitizeToolName } from "@weft/sdk";
import type { Logger } from "@weft/sdk";
import { AgentCardError, cardUrl, fetchAgentCard } from "./agent-card.js";
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_CARD_TIMEOUT_MS, type AgentConfig } from "./agent-config.js";
import { agentFetch } from "./agent-fetch.js";
import { checkCardSignature } from "./card-signature.js";
import { expandHeaders } from "./header-expansion.js";
import { unmetRequirement } from "./security-requirements.js";

/** An agent's config with its headers expanded: ready to fetch the card. */
export interface PreparedAgent {
  readonly config: AgentConfig;
  /** How warnings and errors name the agent before its card is known: `name (card URL)`, else the card URL. */
  readonly label: string;
  /** The card URL, or the reason it is not one (reported when the agent loads). */
  readonly url: URL | AgentCardError;
  readonly headers: Record<string, string>;
  /** Where the headers may go: the configured origins, else the card URL's. */
  readonly origins: ReadonlySet<string>;
  readonly fetch: typeof fetch;
  /** What the card asks for that the headers do not give, once the card is known: a 401 says it. */
  unmet?: string;
}

/** A connected agent: its card and a client on the interface it prefers. */
export interface RemoteAgent {
  /** Sanitized: the tool name prefix and the tools' source id. */
  readonly name: string;
  readonly card: AgentCard;
  readonly client: Client;
  readonly streaming: boolean;
  /** The interface calls go to (the card's first), for messages. */
  readonly url: string;
  readonly timeoutMs: number;
  readonly logger: Logger;
}

/** Expands every agent's headers first, so a missing variable fails before anything is fetched. */
export function prepareAgents(configs: readonly AgentConfig[], env: Record<string, string | undefined>): PreparedAgent[] {
  return configs.map((config) => {
    const label = config.name ? `${config.name} (${config.card})` : config.card;
    const headers = expandHeaders(config.headers ?? {}, env, label);
    const url = parsedCardUrl(config.card);
    const origins = new Set(config.origins?.map((origin) => originOf(origin, label)) ?? (url instanceof URL ? [url.origin] : []));
    const prepared: PreparedAgent = {
      config,
      label,
      url,
      headers,
      origins,
      fetch: agentFetch({ headers, origins, unauthorized: (target, status) => unauthorizedText(prepared, target, status) }),
    };
    return prepared;
  });
}

/** Fetches the card and builds the client. Fails with an AgentCardError saying why; `warn` hears what loads anyway. */
export async function connectAgent(agent: PreparedAgent, signal: AbortSignal, logger: Logger, warn: (text: string) => void): Promise<RemoteAgent> {
  const { config, headers, origins } = agent;
  if (agent.url instanceof AgentCardError) throw agent.url;
  const cardTimeout = config.cardTimeout ?? DEFAULT_CARD_TIMEOUT_MS;
  const fetched = await fetchAgentCard(agent.url, agent.fetch, AbortSignal.any([signal, AbortSignal.timeout(cardTimeout)]), cardTimeout);
  const credentials = Object.keys(headers).length > 0;
  const from = agent.url.origin;
  if (credentials && !origins.has(fetched.url.origin)) {
    warn(`its card at ${from} redirected to ${fetched.url.origin}; the configured headers are not sent to ${fetched.url.origin}`);
  }
  if (config.verify) {
    const unsigned = await checkCardSignature(fetched.raw, config.verify, signal);
    if (unsigned) warn(unsigned);
  }
  let card = fetched.card;
  for (const { url } of card.supportedInterfaces) {
    const origin = URL.canParse(url) ? new URL(url).origin : url;
    if (credentials && !origins.has(origin)) warn(`its card sends calls to ${origin}, not ${from}; the configured headers are not sent to ${origin} (list it in origins to send them)`);
  }
  const client = await clientFor(card, agent.fetch);
  // The authenticated extended card lists what these credentials may use; without credentials it is the same card.
  if (credentials && card.capabilities?.extendedAgentCard) {
    try {
      const extended = await client.getAgentCard({ signal });
      // Checked like the public card: with verify set, an extended card that does not verify is not used.
      const unsigned = config.verify ? await checkCardSignature(extended, config.verify, signal) : undefined;
      if (unsigned) warn(unsigned.replace(/^its card/, "its extended card"));
      card = extended;
    } catch (error) {
      warn(`could not use its extended card (${errorMessage(error)}); using the public card`);
    }
  }
  agent.unmet = unmetRequirement(card, fetched.raw, origins.has(from) ? headers : {});
  if (agent.unmet) warn(`its card requires ${agent.unmet}, which the configured headers do not provide; calls will be refused until headers set it`);
  return {
    name: sanitizeToolName(config.name ?? card.name),
    card,
    client,
    streaming: card.capabilities?.streaming === true,
    url: card.supportedInterfaces[0]?.url ?? fetched.url.href,
    timeoutMs: config.timeout ?? DEFAULT_CALL_TIMEOUT_MS,
    logger,
  };
}

async function clientFor(card: AgentCard, fetchImpl: typeof fetch): Promise<Client> {
  const transportOptions = { fetchImpl, legacyCompat: { enabled: true } };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory(transportOptions), new RestTransportFactory(transportOptions)],
    }),
  );
  try {
    return await factory.createFromAgentCard(card);
  } catch (error) {
    throw new AgentCardError(`none of its interfaces can be called: ${errorMessage(error)}`);
  }
}

/** What a 401/403 tells the model: why the credentials did not go, or what the card wants. */
function unauthorizedText(agent: PreparedAgent, url: URL, status: number): string {
  const prefix = `${status} from ${url.href}`;
  const configured = Object.keys(agent.headers).length > 0;
  if (configured && !agent.origins.has(url.origin)) {
    return `${prefix}: the configured headers are not sent to ${url.origin} (only to ${[...agent.origins].join(", ")}); list it in origins to send them`;
  }
  if (agent.unmet) return `${prefix}: the card requires ${agent.unmet}; set headers`;
  return configured ? `${prefix}: the agent refused the configured credentials; check headers` : `${prefix}: the agent wants credentials; set headers`;
}

function parsedCardUrl(card: string): URL | AgentCardError {
  try {
    return cardUrl(card);
  } catch (error) {
    return error instanceof AgentCardError ? error : new AgentCardError(errorMessage(error));
  }
}

function originOf(origin: string, label: string): string {
  if (!URL.canParse(origin)) throw new WeftError("CONFIG_INVALID", `A2A agent ${label}: origins entry "${origin}" is not a URL; write it as https://host[:port]`);
  return new URL(origin).origin;
}
