import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { generateAgentCardSignature } from "@a2a-js/sdk";
import { memoryLogger } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import type { RequestHandler } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import a2aPlugin, { resolveAgentTools } from "./index.js";
import { startAgentServer, startHttpServer, type AgentServer, type AgentServerOptions } from "./test-fixtures/agent-server.js";
import { startLegacyAgentServer } from "./test-fixtures/legacy-agent-server.js";
import { canonicalV03Card } from "./v03-card-signature.js";

const skills = [{ id: "ask", name: "Ask", description: "Answers" }];
const echo: AgentServerOptions["run"] = (turn) => turn.reply(`You said: ${turn.text}`);
const CREDENTIALS = { Authorization: "Bearer s3cret", "X-API-Key": "k3y" };

describe("credentials stay with their origin", () => {
  let target: AgentServer;
  let redirector: { origin: string; close(): Promise<void> };

  beforeAll(async () => {
    target = await startAgentServer({ name: "Moved Agent", streaming: true, skills, run: echo });
    redirector = await startHttpServer({
      "/.well-known/agent-card.json": (res) => res.writeHead(302, { location: target.cardUrl }).end(),
    });
  });

  afterAll(async () => {
    await target?.close();
    await redirector?.close();
  });

  it("sends no configured header after a cross-origin redirect of the card, and says so naming both origins", async () => {
    const logger = memoryLogger();
    const before = target.requests.length;
    const kernel = await createTestKernel([[a2aPlugin, { agents: [{ card: redirector.origin, headers: CREDENTIALS }] }]], { logger });
    try {
      expect(logger.warnings()).toEqual([
        `A2A agent ${redirector.origin}: its card at ${redirector.origin} redirected to ${target.origin}; the configured headers are not sent to ${target.origin}`,
        `A2A agent ${redirector.origin}: its card sends calls to ${target.origin}, not ${redirector.origin}; the configured headers are not sent to ${target.origin} (list it in origins to send them)`,
      ]);
      expect((await kernel.execute({ name: "Moved_Agent__ask", arguments: { task: "hi" } })).output).toBe("You said: hi");
      const seen = target.requests.slice(before);
      expect(seen.map((request) => request.path)).toEqual(["/.well-known/agent-card.json", "/a2a/jsonrpc"]);
      for (const request of seen) {
        expect(request.headers.authorization).toBeUndefined();
        expect(request.headers["x-api-key"]).toBeUndefined();
      }
    } finally {
      await kernel.close();
    }
  });

  it("sends the headers to the origins the config names, and only there", async () => {
    const logger = memoryLogger();
    const before = target.requests.length;
    const kernel = await createTestKernel([[a2aPlugin, { agents: [{ card: redirector.origin, headers: CREDENTIALS, origins: [target.origin] }] }]], { logger });
    try {
      expect(logger.warnings()).toEqual([]);
      await kernel.execute({ name: "Moved_Agent__ask", arguments: { task: "hi" } });
      for (const request of target.requests.slice(before)) expect(request.headers["x-api-key"]).toBe("k3y");
    } finally {
      await kernel.close();
    }
  });
});

describe("a card that requires authentication", () => {
  let secure: AgentServer;
  /** The agent's own check: no bearer token, no entry. */
  const bearerOnly: RequestHandler = (req, res, next) => (req.headers.authorization === "Bearer s3cret" ? next() : res.status(401).json({ error: "unauthorized" }));

  beforeAll(async () => {
    secure = await startAgentServer({
      name: "Secure Agent",
      streaming: true,
      skills,
      run: echo,
      intercept: [bearerOnly],
      security: {
        securitySchemes: { bearer: { scheme: { $case: "httpAuthSecurityScheme", value: { description: "", scheme: "bearer", bearerFormat: "" } } } },
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      },
    });
  });

  afterAll(async () => {
    await secure?.close();
  });

  it("is a warning at load when no header provides it, and the 401 says what the card requires", async () => {
    const logger = memoryLogger();
    const kernel = await createTestKernel([[a2aPlugin, { agents: [{ card: secure.cardUrl }] }]], { logger });
    try {
      expect(logger.warnings()).toEqual([
        `A2A agent ${secure.cardUrl}: its card requires HTTP bearer authentication "bearer" (header Authorization), which the configured headers do not provide; calls will be refused until headers set it`,
      ]);
      const result = await kernel.execute({ name: "Secure_Agent__ask", arguments: { task: "hi" } });
      expect(result).toEqual({
        isError: true,
        output: `Secure_Agent call failed: 401 from ${secure.origin}/a2a/jsonrpc: the card requires HTTP bearer authentication "bearer" (header Authorization); set headers`,
      });
    } finally {
      await kernel.close();
    }
  });

  it("loads quietly and calls through when the headers provide it", async () => {
    const logger = memoryLogger();
    const kernel = await createTestKernel([[a2aPlugin, { agents: [{ card: secure.cardUrl, headers: { Authorization: "Bearer s3cret" } }] }]], { logger });
    try {
      expect(logger.warnings()).toEqual([]);
      expect((await kernel.execute({ name: "Secure_Agent__ask", arguments: { task: "hi" } })).output).toBe("You said: hi");
    } finally {
      await kernel.close();
    }
  });
});

describe("signed cards", () => {
  const signer = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const impostor = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const publicKey = { ...signer.publicKey.export({ format: "jwk" }), kid: "weft-test" };
  const header = { alg: "ES256", kid: "weft-test", typ: "JOSE" };
  let signed: AgentServer;
  let forged: AgentServer;
  let unsigned: AgentServer;
  let jwks: { origin: string; close(): Promise<void> };

  beforeAll(async () => {
    signed = await startAgentServer({ name: "Signed Agent", streaming: false, skills, run: echo, sign: generateAgentCardSignature(signer.privateKey, header) });
    forged = await startAgentServer({ name: "Forged Agent", streaming: false, skills, run: echo, sign: generateAgentCardSignature(impostor.privateKey, header) });
    unsigned = await startAgentServer({ name: "Plain Agent", streaming: false, skills, run: echo });
    jwks = await startHttpServer({ "/jwks.json": (res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [publicKey] })) });
  });

  afterAll(async () => {
    await Promise.all([signed?.close(), forged?.close(), unsigned?.close(), jwks?.close()]);
  });

  it("loads a card whose signature verifies against the configured keys or JWKS", async () => {
    const logger = memoryLogger();
    const tools = await resolveAgentTools(
      [
        { card: signed.cardUrl, verify: { keys: [publicKey], required: true } },
        { card: signed.cardUrl, name: "ByJwks", verify: { jwksUrl: `${jwks.origin}/jwks.json`, required: true } },
      ],
      { logger },
    );
    expect(tools.map((tool) => tool.name)).toEqual(["Signed_Agent__ask", "ByJwks__ask"]);
    expect(logger.warnings()).toEqual([]);
  });

  it("refuses a badly signed card, and with verify.required an unsigned one, saying why", async () => {
    const logger = memoryLogger();
    const tools = await resolveAgentTools(
      [
        { card: forged.cardUrl, verify: { keys: [publicKey], required: true } },
        { card: unsigned.cardUrl, verify: { keys: [publicKey], required: true } },
        { card: unsigned.cardUrl, name: "Lenient", verify: { keys: [publicKey] } },
      ],
      { logger },
    );
    expect(tools.map((tool) => tool.name)).toEqual(["Lenient__ask"]);
    expect(logger.warnings()).toEqual([
      `A2A agent ${forged.cardUrl}: could not load its card: its card signature does not verify against the configured keys; it contributes no tools`,
      `A2A agent ${unsigned.cardUrl}: could not load its card: its card is not signed, and verify.required is set; it contributes no tools`,
      `A2A agent Lenient (${unsigned.cardUrl}): its card is not signed; it is loaded unverified`,
    ]);
  });
  it("checks the extended card's signature too: one that does not verify is not used", async () => {
    const good = generateAgentCardSignature(signer.privateKey, header);
    const bad = generateAgentCardSignature(impostor.privateKey, header);
    const extendedSkills = [{ id: "admin", name: "Admin", description: "Members only" }];
    const honest = await startAgentServer({ name: "Deep Signed", streaming: false, skills, extendedSkills, run: echo, sign: good });
    // The public card verifies; the extended one (the card with more skills) is signed by another key.
    const swapped = await startAgentServer({ name: "Deep Swapped", streaming: false, skills, extendedSkills, run: echo, sign: (card) => (card.skills.length > 1 ? bad(card) : good(card)) });
    try {
      const logger = memoryLogger();
      const member = { headers: { Authorization: "Bearer s3cret" }, verify: { keys: [publicKey], required: true } };
      const tools = await resolveAgentTools([{ card: honest.cardUrl, ...member }, { card: swapped.cardUrl, ...member }], { logger });
      expect(tools.map((tool) => tool.name)).toEqual(["Deep_Signed__ask", "Deep_Signed__admin", "Deep_Swapped__ask"]);
      expect(logger.warnings()).toEqual([
        `A2A agent ${swapped.cardUrl}: could not use its extended card (its card signature does not verify against the configured keys); using the public card`,
      ]);
    } finally {
      await Promise.all([honest.close(), swapped.close()]);
    }
  });
});

describe("v0.3 card signatures, checked under the v0.3 rules", () => {
  const signer = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const publicKey = { ...signer.publicKey.export({ format: "jwk" }), kid: "v03-key" };
  const protectedHeader = Buffer.from(JSON.stringify({ alg: "ES256", kid: "v03-key", typ: "JOSE" })).toString("base64url");
  /** A v0.3 signer: ES256 over the JCS form of the card (a JWS with detached payload), as node:crypto computes it. */
  const v03Signature = (key: KeyObject, card: Record<string, unknown>) => {
    const input = `${protectedHeader}.${Buffer.from(canonicalV03Card(card)).toString("base64url")}`;
    return [{ protected: protectedHeader, signature: sign("sha256", Buffer.from(input), { key, dsaEncoding: "ieee-p1363" }).toString("base64url") }];
  };

  it("canonicalizes as RFC 8785 does: sorted keys, no whitespace, no signatures, no empty values", () => {
    const card = { version: "1", name: "Ä agent", skills: [{ tags: [], id: "x", description: "" }], capabilities: {}, protocolVersion: "0.3.0", rank: 1.5, signatures: [{ protected: "p", signature: "s" }] };
    expect(canonicalV03Card(card)).toBe('{"name":"Ä agent","protocolVersion":"0.3.0","rank":1.5,"skills":[{"id":"x"}],"version":"1"}');
  });

  it("loads a 0.3.14 peer's card signed under the v0.3 rules, and refuses one whose signed content was changed", async () => {
    const good = await startLegacyAgentServer({ name: "Signed Legacy", streaming: false, skills, run: echo, signV03: (card) => v03Signature(signer.privateKey, card) });
    // Signed over another url than the one served: what a proxy rewriting the card would produce.
    const altered = await startLegacyAgentServer({
      name: "Altered Legacy",
      streaming: false,
      skills,
      run: echo,
      signV03: (card) => v03Signature(signer.privateKey, { ...card, url: "http://127.0.0.1:9/a2a/jsonrpc" }),
    });
    try {
      const logger = memoryLogger();
      const tools = await resolveAgentTools(
        [
          { card: good.cardUrl, verify: { keys: [publicKey], required: true } },
          { card: altered.cardUrl, verify: { keys: [publicKey], required: true } },
        ],
        { logger },
      );
      expect(tools.map((tool) => tool.name)).toEqual(["Signed_Legacy__ask"]);
      expect(logger.warnings()).toEqual([
        `A2A agent ${altered.cardUrl}: could not load its card: its card signature does not verify against the configured keys; it contributes no tools`,
      ]);
    } finally {
      await Promise.all([good.close(), altered.close()]);
    }
  });
});

describe("the authenticated extended card", () => {
  it("is fetched when the card offers it and headers are configured, and gives its skills", async () => {
    const server = await startAgentServer({ name: "Deep Agent", streaming: false, skills, extendedSkills: [{ id: "admin", name: "Admin", description: "Members only" }], run: echo });
    try {
      const anonymous = await resolveAgentTools([{ card: server.cardUrl }], { logger: memoryLogger() });
      expect(anonymous.map((tool) => tool.name)).toEqual(["Deep_Agent__ask"]);
      const logger = memoryLogger();
      const member = await resolveAgentTools([{ card: server.cardUrl, headers: { Authorization: "Bearer s3cret" } }], { logger });
      expect(member.map((tool) => tool.name)).toEqual(["Deep_Agent__ask", "Deep_Agent__admin"]);
      expect(logger.warnings()).toEqual([]);
      const calls = server.requests.filter((request) => request.path === "/a2a/jsonrpc");
      expect(calls.map((request) => request.headers.authorization)).toEqual(["Bearer s3cret"]);
    } finally {
      await server.close();
    }
  });
});

describe("card versions", () => {
  it("refuses a card older than A2A 0.3", async () => {
    const old = await startHttpServer({
      "/.well-known/agent-card.json": (res) =>
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ name: "Old", url: "http://127.0.0.1:1/rpc", protocolVersion: "0.2.5", version: "1", capabilities: {}, skills: [{ id: "x", name: "X", description: "x", tags: [] }] })),
    });
    try {
      const logger = memoryLogger();
      expect(await resolveAgentTools([{ card: old.origin }], { logger })).toEqual([]);
      expect(logger.warnings()).toEqual([`A2A agent ${old.origin}: could not load its card: it speaks A2A 0.2.5; weft speaks 0.3 and later; it contributes no tools`]);
    } finally {
      await old.close();
    }
  });
});
