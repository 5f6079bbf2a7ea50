import { type KeyObject, createPublicKey, verify as verifyBytes } from "node:crypto";
import { isRecord } from "@weft/sdk";

/**
 * A2A v0.3's card signatures: a JWS (RFC 7515, detached payload) over the RFC 8785 (JCS)
 * canonical form of the card as served, without `signatures` and without empty values (null, "",
 * [], {}), which is how the v0.3 reference signers canonicalize. `@a2a-js/sdk` 1.x canonicalizes
 * the v1.0 shape only, where a v0.3 card's `url`, `preferredTransport` and `protocolVersion` do not
 * exist, so a card signed under these rules needs its own check.
 */
export function isV03Card(raw: Record<string, unknown>): boolean {
  // A top-level protocolVersion is v0.3's (v1.0 moved it into supportedInterfaces, which SDK 1.x servers add to v0.3 cards).
  return typeof raw.protocolVersion === "string" && raw.protocolVersion.startsWith("0.3");
}

/** The bytes a v0.3 signer signed. */
export function canonicalV03Card(raw: Record<string, unknown>): string {
  const { signatures: _signatures, ...rest } = raw;
  return jcs(withoutEmpty(rest) ?? {});
}

export interface CardSignature {
  protected: string;
  signature: string;
}

/** Whether one of `signatures` verifies over `payload` with the key `keyFor` gives for its `kid`. */
export async function verifiesV03(payload: string, signatures: readonly CardSignature[], keyFor: (kid: string) => Promise<unknown>): Promise<boolean> {
  const encodedPayload = Buffer.from(payload).toString("base64url");
  for (const entry of signatures) {
    const header = protectedHeader(entry.protected);
    if (!header || typeof header.alg !== "string" || typeof header.kid !== "string") continue;
    let key: KeyObject;
    try {
      key = createPublicKey({ key: (await keyFor(header.kid)) as never, format: "jwk" });
    } catch {
      continue;
    }
    const input = Buffer.from(`${entry.protected}.${encodedPayload}`);
    if (checks(header.alg, input, key, Buffer.from(entry.signature, "base64url"))) return true;
  }
  return false;
}

/** The JWS algorithms A2A cards are signed with; any other is not accepted. */
function checks(alg: string, input: Buffer, key: KeyObject, signature: Buffer): boolean {
  const hash = `sha${alg.slice(2)}`;
  try {
    switch (alg) {
      case "ES256":
      case "ES384":
      case "ES512":
        return verifyBytes(hash, input, { key, dsaEncoding: "ieee-p1363" }, signature);
      case "RS256":
      case "RS384":
      case "RS512":
        return verifyBytes(hash, input, key, signature);
      case "EdDSA":
        return verifyBytes(null, input, key, signature);
      default:
        return false;
    }
  } catch {
    return false;
  }
}

function protectedHeader(encoded: string): Record<string, unknown> | undefined {
  try {
    const header: unknown = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
    return isRecord(header) ? header : undefined;
  } catch {
    return undefined;
  }
}

function withoutEmpty(value: unknown): unknown {
  if (value === null || value === undefined || value === "") return undefined;
  if (Array.isArray(value)) {
    const items = value.map(withoutEmpty).filter((item) => item !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (typeof value === "object") {
    const entries = Object.entries(value).flatMap(([key, item]) => {
      const kept = withoutEmpty(item);
      return kept === undefined ? [] : [[key, kept] as const];
    });
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }
  return value;
}

/** RFC 8785: keys sorted by UTF-16 code units, no whitespace, ECMAScript number and string forms. */
function jcs(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jcs).join(",")}]`;
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${jcs(value[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}
