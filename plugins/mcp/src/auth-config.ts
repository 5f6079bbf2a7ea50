import { isRecord, type McpServerAuth } from "@weft/sdk";
import { expandVariables } from "./expand-variables.js";

/** OAuth grants weft runs for a remote server. */
const OAUTH_GRANTS = ["authorization_code", "client_credentials"] as const;
export type OAuthGrant = (typeof OAUTH_GRANTS)[number];

/**
 * A remote server's `auth:` entry, validated; `${VAR}` references are still in place (`resolveAuth`
 * expands them when the server starts), with the grant filled in. The fields are the sdk's `McpServerAuth`.
 */
export type McpAuthSpec = McpServerAuth & { grant: OAuthGrant };

const FIELDS = ["grant", "clientId", "clientSecret", "privateKey", "signingAlgorithm", "scopes", "redirectPort"];

/** Validates `auth` of a server entry; `fail(field, problem)` throws the entry's error. */
export function parseAuth(value: unknown, fail: (field: string, problem: string) => never): McpAuthSpec {
  if (!isRecord(value)) return fail('"auth"', "must be an object (use {} for OAuth with dynamic client registration)");
  const auth = value;
  const unknown = Object.keys(auth).filter((key) => !FIELDS.includes(key));
  if (unknown.length > 0) fail(`"auth.${unknown[0]}"`, `is not an auth field (known: ${FIELDS.join(", ")})`);
  const text = (field: string): string | undefined => {
    const item = auth[field];
    if (item === undefined) return undefined;
    return typeof item === "string" && item.length > 0 ? item : fail(`"auth.${field}"`, "must be a non-empty string");
  };
  const grantName = text("grant") ?? "authorization_code";
  const grant = OAUTH_GRANTS.find((name) => name === grantName) ?? fail('"auth.grant"', `must be one of ${OAUTH_GRANTS.join(", ")} (got "${grantName}")`);
  const scopes = auth.scopes;
  if (scopes !== undefined && !isScopeList(scopes)) {
    fail('"auth.scopes"', "must be an array of scope names");
  }
  const port = auth.redirectPort;
  if (port !== undefined && !isPort(port)) fail('"auth.redirectPort"', "must be a port number (1-65535)");
  const spec: McpAuthSpec = { grant };
  const fields = { clientId: text("clientId"), clientSecret: text("clientSecret"), privateKey: text("privateKey"), signingAlgorithm: text("signingAlgorithm") };
  for (const [field, item] of Object.entries(fields)) if (item !== undefined) Object.assign(spec, { [field]: item });
  if (scopes !== undefined) spec.scopes = [...scopes];
  if (port !== undefined) spec.redirectPort = port;
  if (grant === "client_credentials") {
    if (spec.clientId === undefined) fail('"auth.clientId"', 'is required with "grant": "client_credentials"');
    if (spec.clientSecret === undefined && spec.privateKey === undefined) fail('"auth"', 'needs "clientSecret" or "privateKey" with "grant": "client_credentials"');
    if (spec.redirectPort !== undefined) fail('"auth.redirectPort"', 'has no use with "grant": "client_credentials" (nothing is redirected)');
  }
  if (spec.clientSecret !== undefined && spec.privateKey !== undefined) fail('"auth"', 'has both "clientSecret" and "privateKey": the client authenticates one way');
  if (spec.signingAlgorithm !== undefined && spec.privateKey === undefined) fail('"auth.signingAlgorithm"', 'needs "privateKey"');
  if (spec.clientSecret !== undefined && spec.clientId === undefined) fail('"auth.clientSecret"', 'needs "clientId" (the secret of a pre-registered client)');
  return spec;
}

/** The auth entry with `${VAR}` expanded in its strings; an unset variable is an error naming the field, never a value. */
export function resolveAuth(auth: McpAuthSpec, env: Record<string, string | undefined>, missing: (field: string, problem: string) => never): McpAuthSpec {
  const expand = (field: keyof McpAuthSpec) => {
    const value = auth[field];
    return typeof value === "string" ? { [field]: expandVariables(value, env, (problem) => missing(`"auth.${field}"`, problem)) } : {};
  };
  return { ...auth, ...expand("clientId"), ...expand("clientSecret"), ...expand("privateKey"), ...expand("signingAlgorithm") };
}

function isScopeList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((scope) => typeof scope === "string" && scope.length > 0);
}

function isPort(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 65_535;
}
