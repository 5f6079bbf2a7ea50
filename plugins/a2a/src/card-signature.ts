import { verifyAgentCardSignature, type AgentCard } from "@a2a-js/sdk";
import { errorMessage, isRecord } from "@weft/sdk";
import { AgentCardError } from "./agent-card.js";
import type { AgentConfig } from "./agent-config.js";
import { canonicalV03Card, isV03Card, verifiesV03, type CardSignature } from "./v03-card-signature.js";

type VerifyConfig = NonNullable<AgentConfig["verify"]>;
type PublicKey = Awaited<ReturnType<Parameters<typeof verifyAgentCardSignature>[0]>>;

/**
 * Checks the card's JWS signatures against the configured keys or JWKS: a v1.0 card by the SDK's
 * scheme (JCS of the card without `signatures`), a v0.3 card by the v0.3 rules over the card as
 * served (the SDK's scheme would drop its v0.3 fields, so `url` would go unchecked).
 * A signature that does not verify is always refused: a forged card is worse than an unsigned one.
 * An unsigned card is refused when `required`, else a warning (returned). `raw` is the card as
 * served, which is what was signed.
 */
export async function checkCardSignature(raw: AgentCard, verify: VerifyConfig, signal: AbortSignal): Promise<string | undefined> {
  if (!Array.isArray(raw.signatures) || raw.signatures.length === 0) {
    if (verify.required) throw new AgentCardError("its card is not signed, and verify.required is set");
    return "its card is not signed; it is loaded unverified";
  }
  let keys: Record<string, unknown>[] | undefined = verify.keys;
  const keyFor = async (kid: string): Promise<PublicKey> => {
    keys ??= await fetchJwks(verify, signal);
    const key = keys.find((candidate) => candidate.kid === kid) ?? (keys.length === 1 && keys[0]?.kid === undefined ? keys[0] : undefined);
    if (!key) throw new Error(`no configured key has kid "${kid}"`);
    return key as PublicKey;
  };
  const served = raw as unknown as Record<string, unknown>;
  try {
    if (isV03Card(served)) {
      if (!(await verifiesV03(canonicalV03Card(served), raw.signatures as CardSignature[], keyFor))) throw new Error("no signature verifies");
    } else {
      await verifyAgentCardSignature(keyFor)(raw);
    }
  } catch (error) {
    // The SDK's own message ("No valid signatures found") says less than a key or JWKS failure does.
    const reason = error instanceof AgentCardError ? error.message : keys ? "against the configured keys" : `(${errorMessage(error)})`;
    throw new AgentCardError(`its card signature does not verify ${reason}`);
  }
  return undefined;
}

/** The JWKS is public: fetched without the agent's headers. */
async function fetchJwks(verify: VerifyConfig, signal: AbortSignal): Promise<Record<string, unknown>[]> {
  if (!verify.jwksUrl) throw new AgentCardError("verify needs keys or a jwksUrl");
  const response = await fetch(verify.jwksUrl, { headers: { Accept: "application/json" }, signal });
  if (!response.ok) throw new Error(`the JWKS at ${verify.jwksUrl} answered HTTP ${response.status}`);
  const body: unknown = await response.json();
  if (!isRecord(body) || !Array.isArray(body.keys)) throw new Error(`the JWKS at ${verify.jwksUrl} has no keys`);
  return body.keys.filter(isRecord);
}
