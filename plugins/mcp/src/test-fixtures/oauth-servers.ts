/**
 * A real OAuth 2.1 authorization server and an MCP server it protects, both on 127.0.0.1 (ephemeral ports),
 * built from the MCP SDK's server-side auth (its authorization, token and registration handlers with PKCE
 * checks, protected-resource metadata, bearer middleware). Codes and tokens are issued here and recorded,
 * so a test can see what the client sent.
 */
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express, { type Response } from "express";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { getOAuthProtectedResourceMetadataUrl, mcpAuthMetadataRouter, mcpAuthRouter, createOAuthMetadata } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";

export interface OAuthLog {
  registrations: OAuthClientInformationFull[];
  authorizations: AuthorizationParams[];
  /** `authorization_code` or `refresh_token`, in order. */
  grants: string[];
}

class Issuer implements OAuthServerProvider {
  readonly log: OAuthLog = { registrations: [], authorizations: [], grants: [] };
  readonly #clients = new Map<string, OAuthClientInformationFull>();
  readonly #codes = new Map<string, { client: string; params: AuthorizationParams }>();
  readonly #access = new Map<string, AuthInfo>();
  readonly #refresh = new Map<string, { client: string; scopes: string[]; resource?: URL }>();
  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: async (id) => this.#clients.get(id),
    registerClient: async (client) => {
      const full = client as OAuthClientInformationFull;
      this.#clients.set(full.client_id, full);
      this.log.registrations.push(full);
      return full;
    },
  };

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    this.log.authorizations.push(params);
    const code = randomUUID();
    this.#codes.set(code, { client: client.client_id, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const entry = this.#codes.get(code);
    if (!entry) throw new InvalidGrantError("unknown authorization code");
    return entry.params.codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const entry = this.#codes.get(code);
    if (!entry || entry.client !== client.client_id) throw new InvalidGrantError("unknown authorization code");
    this.#codes.delete(code);
    this.log.grants.push("authorization_code");
    return this.#issue(client.client_id, entry.params.scopes ?? [], entry.params.resource);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const entry = this.#refresh.get(refreshToken);
    if (!entry || entry.client !== client.client_id) throw new InvalidGrantError("unknown refresh token");
    this.#refresh.delete(refreshToken);
    this.log.grants.push("refresh_token");
    return this.#issue(entry.client, entry.scopes, entry.resource);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const info = this.#access.get(token);
    if (!info) throw new InvalidTokenError("unknown or expired access token");
    return info;
  }

  /** Every access token stops working (as if they expired); refresh tokens still do. */
  expireAccessTokens(): void {
    this.#access.clear();
  }

  /** Every refresh token stops working too: the next request needs a new sign-in. */
  revokeEverything(): void {
    this.#access.clear();
    this.#refresh.clear();
  }

  #issue(client: string, scopes: string[], resource?: URL): OAuthTokens {
    const access = randomUUID();
    const refresh = randomUUID();
    this.#access.set(access, { token: access, clientId: client, scopes, expiresAt: Math.floor(Date.now() / 1000) + 3600, ...(resource ? { resource } : {}) });
    this.#refresh.set(refresh, { client, scopes, ...(resource ? { resource } : {}) });
    return { access_token: access, token_type: "bearer", expires_in: 3600, refresh_token: refresh, scope: scopes.join(" ") };
  }
}

export interface ProtectedMcp {
  /** The MCP endpoint. */
  url: string;
  issuer: Issuer;
  /** How many MCP requests came with a valid token. */
  authorizedRequests(): number;
  /** As if the MCP server restarted: every session ends (its event streams close) and is unknown from now on (404). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

async function listen(app: express.Express): Promise<Server> {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => resolve(server));
  });
}

/** The authorization server and the MCP server (tool `whoami`: the caller's client id and scopes). */
export async function startProtectedMcp(): Promise<ProtectedMcp> {
  const issuer = new Issuer();
  const authApp = express();
  const authServer = await listen(authApp);
  const authUrl = new URL(`http://127.0.0.1:${(authServer.address() as AddressInfo).port}/`);
  authApp.use(mcpAuthRouter({ provider: issuer, issuerUrl: authUrl, scopesSupported: ["mcp:tools"] }));

  const app = express();
  app.use(express.json());
  const mcpServer = await listen(app);
  const url = new URL(`http://127.0.0.1:${(mcpServer.address() as AddressInfo).port}/mcp`);
  app.use(mcpAuthMetadataRouter({ oauthMetadata: createOAuthMetadata({ provider: issuer, issuerUrl: authUrl, scopesSupported: ["mcp:tools"] }), resourceServerUrl: url }));
  let authorized = 0;
  const transports = new Map<string, StreamableHTTPServerTransport>();
  app.all("/mcp", requireBearerAuth({ verifier: issuer, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(url) }), async (req, res) => {
    authorized++;
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? transports.get(id) : undefined;
    if (typeof id === "string" && !transport) {
      res.status(404).json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
      return;
    }
    if (!transport) {
      const created = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (session) => void transports.set(session, created) });
      const server = new McpServer({ name: "protected", version: "1.0.0" });
      server.registerTool("whoami", { description: "who the token belongs to" }, async (extra) => ({
        content: [{ type: "text", text: `client ${extra.authInfo?.clientId} with scopes ${extra.authInfo?.scopes.join(" ") || "(none)"}` }],
      }));
      await server.connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, req.body);
  });
  return {
    url: url.href,
    issuer,
    authorizedRequests: () => authorized,
    restart: async () => {
      const ended = [...transports.values()];
      transports.clear();
      for (const transport of ended) await transport.close();
    },
    close: async () => {
      for (const transport of transports.values()) await transport.close();
      for (const server of [mcpServer, authServer]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
