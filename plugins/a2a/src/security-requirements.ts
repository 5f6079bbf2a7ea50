import type { AgentCard, SecurityScheme } from "@a2a-js/sdk";

/**
 * The first way of authenticating the card asks for that the configured headers do not provide, in
 * words ("HTTP bearer authentication (header Authorization)"), or undefined when one of the card's
 * alternatives is met or it asks for none. Requirements are alternatives; the schemes in one are all needed.
 */
export function unmetRequirement(card: AgentCard, raw: AgentCard, headers: Record<string, string>): string | undefined {
  const requirements = card.securityRequirements ?? [];
  if (requirements.length === 0) return undefined;
  const sent = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  const scheme = (name: string) => (card.securitySchemes?.[name]?.scheme ? card.securitySchemes[name] : servedScheme(raw, name));
  const described: string[] = [];
  for (const requirement of requirements) {
    const names = Object.keys(requirement.schemes ?? {});
    const missing = names.filter((name) => !satisfied(scheme(name), sent));
    if (missing.length === 0) return undefined;
    described.push(missing.map((name) => describeScheme(name, scheme(name))).join(" and "));
  }
  return described.join(", or ");
}

/**
 * `@a2a-js/sdk` 1.3.0 servers publish a scheme in its in-memory shape (`{ scheme: { $case, value } }`),
 * which the card parser drops; read it as served.
 */
function servedScheme(raw: AgentCard, name: string): SecurityScheme | undefined {
  const served = (raw.securitySchemes as Record<string, { scheme?: { $case?: unknown; value?: unknown } } | undefined> | undefined)?.[name];
  const value = served?.scheme;
  return typeof value?.$case === "string" && typeof value.value === "object" && value.value !== null ? (served as SecurityScheme) : undefined;
}

/** The header a scheme is carried in, when a configured header can carry it. */
function carrier(scheme: SecurityScheme | undefined): string | undefined {
  const value = scheme?.scheme;
  switch (value?.$case) {
    case "apiKeySecurityScheme":
      return value.value.location.toLowerCase() === "header" ? value.value.name : value.value.location.toLowerCase() === "cookie" ? "Cookie" : undefined;
    case "httpAuthSecurityScheme":
    case "oauth2SecurityScheme":
    case "openIdConnectSecurityScheme":
      return "Authorization";
    default:
      return undefined;
  }
}

function satisfied(scheme: SecurityScheme | undefined, sent: ReadonlySet<string>): boolean {
  const header = carrier(scheme);
  return header !== undefined && sent.has(header.toLowerCase());
}

function describeScheme(name: string, scheme: SecurityScheme | undefined): string {
  const value = scheme?.scheme;
  const header = carrier(scheme);
  const via = header ? ` (header ${header})` : "";
  switch (value?.$case) {
    case "apiKeySecurityScheme":
      return `API key "${name}"${header ? via : ` in the ${value.value.location} parameter ${value.value.name}`}`;
    case "httpAuthSecurityScheme":
      return `HTTP ${value.value.scheme || "auth"} authentication "${name}"${via}`;
    case "oauth2SecurityScheme":
      return `OAuth 2.0 "${name}"${via}`;
    case "openIdConnectSecurityScheme":
      return `OpenID Connect "${name}"${via}`;
    case "mtlsSecurityScheme":
      return `mutual TLS "${name}"`;
    default:
      return `"${name}" (not described by the card)`;
  }
}
