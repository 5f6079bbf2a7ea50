import type { Static } from "typebox";
import { Type } from "@weft/sdk";

/** A call's time limit when the agent's config gives none: remote agents may work for minutes. */
export const DEFAULT_CALL_TIMEOUT_MS = 300_000;
/** How long fetching one agent card may take. */
export const DEFAULT_CARD_TIMEOUT_MS = 30_000;

export const agentConfigSchema = Type.Object(
  {
    card: Type.String({ minLength: 1, description: "URL of the agent card, e.g. https://host/.well-known/agent-card.json" }),
    name: Type.Optional(Type.String({ minLength: 1, description: "Tool name prefix; the card's name when absent (sanitized either way)" })),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: "HTTP headers for the card and every call; ${VAR} expands from the environment" }),
    ),
    timeout: Type.Optional(Type.Integer({ minimum: 1, description: `Time limit of one call in ms (default ${DEFAULT_CALL_TIMEOUT_MS})` })),
    cardTimeout: Type.Optional(Type.Integer({ minimum: 1, description: `Time limit of the card fetch in ms (default ${DEFAULT_CARD_TIMEOUT_MS})` })),
    origins: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        minItems: 1,
        description: "Origins the headers may be sent to, e.g. https://api.example.com (default: the card URL's origin)",
      }),
    ),
    verify: Type.Optional(
      Type.Object(
        {
          jwksUrl: Type.Optional(Type.String({ minLength: 1, description: "JWKS URL with the keys the card must be signed with" })),
          keys: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()), { minItems: 1, description: "Public keys (JWK) the card must be signed with" })),
          required: Type.Optional(Type.Boolean({ description: "Refuse an unsigned card (a badly signed one is always refused)" })),
        },
        { additionalProperties: false, description: "Verify the card's JWS signature" },
      ),
    ),
  },
  { additionalProperties: false },
);

/** One remote A2A agent: where its card is, and how to talk to it. */
export type AgentConfig = Static<typeof agentConfigSchema>;

/** Describes one remote agent (typed, for `agents: [agent({ card: "https://..." })]`). */
export function agent(config: AgentConfig): AgentConfig {
  return config;
}
