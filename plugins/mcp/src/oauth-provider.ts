import { createPrivateKey, randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { createPrivateKeyJwtAuth } from "@modelcontextprotocol/client";
import type { AddClientAuthentication, OAuthClientInformationMixed, OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, OAuthTokens } from "@modelcontextprotocol/client";
import { WeftError } from "@weft/sdk";
import type { McpAuthSpec } from "./auth-config.js";
import type { McpTokenStore, PendingSignIn, StoredAuthorization } from "./token-store.js";
import { CLIENT_INFO } from "./server-connection.js";

/** Where a sign-in stopped: the page the user must visit, and what the redirect back must carry. */
export interface AuthorizationRequest {
  url: URL;
  redirectUri: string;
  state: string;
}

/**
 * The MCP SDK's OAuth hook for one remote server, on weft's `auth:` config and token store. The SDK runs
 * the protocol (protected-resource and authorization-server discovery, client ID metadata documents or
 * dynamic registration, PKCE, scopes, refresh, the resource indicator); this keeps its state, persists
 * what outlives the process, and stops at the user's step: `redirectToAuthorization` only records the
 * URL, which the manager hands to the host (`takeAuthorizationRequest`). Each sign-in started is stored
 * by its `state` with its PKCE verifier until it is finished or expires, so that `resume` can finish it in
 * another process.
 */
export class WeftOAuthProvider implements OAuthClientProvider {
  readonly #auth: McpAuthSpec;
  readonly #store: McpTokenStore;
  readonly #key: string;
  #stored: StoredAuthorization;
  #redirectUri: string | undefined;
  /** How long a sign-in started here may wait for its redirect, in any process. */
  readonly #signInTtlMs: number;
  #codeVerifier: string | undefined;
  #state: string | undefined;
  #pending: AuthorizationRequest | undefined;
  readonly addClientAuthentication?: AddClientAuthentication;

  private constructor(auth: McpAuthSpec, store: McpTokenStore, key: string, stored: StoredAuthorization, redirectUri: string | undefined, signInTtlMs: number) {
    this.#auth = auth;
    this.#signInTtlMs = signInTtlMs;
    this.#store = store;
    this.#key = key;
    this.#stored = stored;
    this.#redirectUri = redirectUri;
    if (auth.privateKey !== undefined && auth.clientId !== undefined) {
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: auth.clientId,
        subject: auth.clientId,
        privateKey: auth.privateKey,
        alg: auth.signingAlgorithm ?? signingAlgorithmOf(auth.privateKey),
      });
    }
  }

  /** The provider for `serverUrl`, with what the store kept for it and the redirect URI settled; its sign-ins expire after `signInTtlMs`. */
  static async open(serverUrl: string, auth: McpAuthSpec, store: McpTokenStore, signInTtlMs: number): Promise<WeftOAuthProvider> {
    const key = new URL(serverUrl).href;
    let stored = (await store.get(key)) ?? {};
    let redirectUri: string | undefined;
    if (auth.grant === "authorization_code") {
      const configured = auth.redirectPort === undefined ? undefined : loopbackRedirect(auth.redirectPort);
      // A client registered for another redirect URI cannot sign in with this one: register again.
      if (configured !== undefined && stored.redirectUri !== undefined && stored.redirectUri !== configured && !isPreRegistered(auth)) {
        stored = { ...stored };
        delete stored.client;
        delete stored.redirectUri;
        // Saves merge into what the store has: the old registration must not come back from it.
        await store.set(key, stored);
      }
      redirectUri = configured ?? stored.redirectUri ?? loopbackRedirect(await freeLoopbackPort());
    }
    return new WeftOAuthProvider(auth, store, key, stored, redirectUri, signInTtlMs);
  }

  get redirectUrl(): string | undefined {
    return this.#redirectUri;
  }

  /** An https client id is a client ID metadata document: the SDK uses it where the server supports them. */
  get clientMetadataUrl(): string | undefined {
    return this.#auth.clientId !== undefined && isHttpsUrl(this.#auth.clientId) ? this.#auth.clientId : undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { grant, clientSecret, privateKey, scopes } = this.#auth;
    return {
      client_name: CLIENT_INFO.name,
      redirect_uris: this.#redirectUri === undefined ? [] : [this.#redirectUri],
      grant_types: grant === "client_credentials" ? ["client_credentials"] : ["authorization_code", "refresh_token"],
      response_types: grant === "client_credentials" ? [] : ["code"],
      token_endpoint_auth_method: privateKey !== undefined ? "private_key_jwt" : clientSecret !== undefined ? "client_secret_basic" : "none",
      ...(scopes && scopes.length > 0 ? { scope: scopes.join(" ") } : {}),
    };
  }

  state(): string {
    this.#state = randomBytes(24).toString("base64url");
    return this.#state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { clientId, clientSecret } = this.#auth;
    if (!isPreRegistered(this.#auth) || clientId === undefined) return this.#stored.client;
    // A configured client keeps the authorization server stamp it earned (the SDK sends it nowhere else).
    const stamp = this.#stored.client?.client_id === clientId ? this.#stored.client.issuer : undefined;
    return { client_id: clientId, ...(clientSecret === undefined ? {} : { client_secret: clientSecret }), ...(stamp === undefined ? {} : { issuer: stamp }) };
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    // A configured secret stays in the config: the store keeps the id and its stamp only.
    const kept = isPreRegistered(this.#auth) ? { client_id: client.client_id, ...(client.issuer === undefined ? {} : { issuer: client.issuer }) } : client;
    await this.#save({ client: kept, ...(this.#redirectUri === undefined ? {} : { redirectUri: this.#redirectUri }) });
  }

  tokens(): OAuthTokens | undefined {
    return this.#stored.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    // The sign-in these tokens end (if any) is over: its redirect must not be used again.
    const finished = this.#state;
    await this.#save({ tokens }, finished === undefined ? undefined : (signIns) => delete signIns[finished]);
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    const redirectUri = this.#redirectUri;
    const state = this.#state;
    if (redirectUri === undefined) throw new WeftError("MCP_AUTH_FAILED", `the authorization server asked for a sign-in page, which the "client_credentials" grant has none of`);
    if (state === undefined || this.#codeVerifier === undefined) throw new WeftError("MCP_AUTH_FAILED", "the sign-in was started without a state or a PKCE code verifier");
    const signIn: PendingSignIn = { codeVerifier: this.#codeVerifier, redirectUri, expiresAt: Date.now() + this.#signInTtlMs };
    await this.#save({}, (signIns) => (signIns[state] = signIn));
    this.#pending = { url, redirectUri, state };
  }

  /**
   * Makes the sign-in started with `state` (here, in another process, or by an earlier run) the one the
   * next code exchange finishes: its PKCE verifier and redirect URI, as the store has them now.
   */
  async resume(state: string, server: string): Promise<void> {
    const stored = (await this.#store.get(this.#key)) ?? {};
    const signIn = stored.signIns?.[state];
    if (signIn === undefined) throw new WeftError("MCP_AUTH_FAILED", `no sign-in to MCP server "${server}" with this state is in progress (it was finished already, or belongs to another server); sign in again`);
    if (signIn.expiresAt <= Date.now()) {
      await this.#save({});
      throw new WeftError("MCP_AUTH_FAILED", `the sign-in to MCP server "${server}" expired before its redirect came back; sign in again`);
    }
    this.#state = state;
    this.#codeVerifier = signIn.codeVerifier;
    this.#redirectUri = signIn.redirectUri;
  }

  /** The sign-in the last `auth()` stopped at, once: the caller runs it. */
  takeAuthorizationRequest(): AuthorizationRequest | undefined {
    const pending = this.#pending;
    this.#pending = undefined;
    return pending;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#codeVerifier === undefined) throw new WeftError("MCP_AUTH_FAILED", "no sign-in is in progress (the PKCE code verifier is gone): sign in again");
    return this.#codeVerifier;
  }

  /** Drops the sign-in started with `state`: it will not be finished. */
  async forget(state: string): Promise<void> {
    await this.#save({}, (signIns) => delete signIns[state]);
  }

  /** client_credentials asks for tokens directly; the authorization code grant keeps the SDK's request. */
  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (this.#auth.grant !== "client_credentials") return undefined;
    const params = new URLSearchParams({ grant_type: "client_credentials" });
    if (scope) params.set("scope", scope);
    return params;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#stored.discovery;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    await this.#save({ discovery });
  }

  /** The server said these no longer hold (a rejected client, a revoked refresh token). */
  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "verifier") {
      this.#codeVerifier = undefined;
      return;
    }
    const cleared: Partial<Record<keyof StoredAuthorization, undefined>> =
      scope === "all" ? { tokens: undefined, client: undefined, discovery: undefined, redirectUri: undefined } : scope === "client" ? { client: undefined } : { [scope === "tokens" ? "tokens" : "discovery"]: undefined };
    if (scope === "all") this.#codeVerifier = undefined;
    await this.#save(cleared);
  }

  /**
   * Applies `change` (and `changeSignIns` to the sign-ins in progress) to what the store has now, not to
   * this process's copy: another process may have started or finished a sign-in meanwhile. Expired
   * sign-ins are dropped on the way.
   */
  async #save(change: Partial<StoredAuthorization>, changeSignIns?: (signIns: Record<string, PendingSignIn>) => void): Promise<void> {
    const current = (await this.#store.get(this.#key)) ?? {};
    const now = Date.now();
    const signIns = Object.fromEntries(Object.entries(current.signIns ?? {}).filter(([, signIn]) => signIn.expiresAt > now));
    changeSignIns?.(signIns);
    const next: StoredAuthorization = { ...current, ...change, signIns };
    if (Object.keys(signIns).length === 0) delete next.signIns;
    for (const key of Object.keys(next) as (keyof StoredAuthorization)[]) if (next[key] === undefined) delete next[key];
    this.#stored = next;
    await this.#store.set(this.#key, next);
  }
}

function isPreRegistered(auth: McpAuthSpec): boolean {
  return auth.clientId !== undefined && !isHttpsUrl(auth.clientId);
}

function isHttpsUrl(value: string): boolean {
  return URL.canParse(value) && new URL(value).protocol === "https:";
}

function loopbackRedirect(port: number): string {
  return `http://127.0.0.1:${port}/callback`;
}

/** A port nothing listens on now, for a redirect URI the user gave no port for. */
async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new WeftError("MCP_AUTH_FAILED", "cannot find a free loopback port for the OAuth redirect; set auth.redirectPort");
  return address.port;
}

/** The JWS algorithm of a PEM key when the config names none: RS256 for RSA, ES256/384/512 by the EC curve. */
function signingAlgorithmOf(pem: string): string {
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new WeftError("MCP_CONFIG_INVALID", `"auth.privateKey" is not a PEM private key (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  const type = key.asymmetricKeyType;
  if (type === "rsa") return "RS256";
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (type === "ec" && curve === "prime256v1") return "ES256";
  if (type === "ec" && curve === "secp384r1") return "ES384";
  if (type === "ec" && curve === "secp521r1") return "ES512";
  throw new WeftError("MCP_CONFIG_INVALID", `"auth.privateKey" is a ${type ?? "unknown"} key${curve ? ` (${curve})` : ""}; set "auth.signingAlgorithm" (RS256, ES256, PS256...)`);
}
