import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Compile } from "typebox/compile";
import { Type } from "typebox";
import { parse } from "yaml";
import { resolveOutput } from "@weft/sdk";
import { useScriptedServer } from "@weft/sdk/testing";
import { ollamaRequest } from "./ollama-request.js";
import { createOllamaModel } from "./ollama-model.js";

const fixtures = new URL("../../../fixtures/providers/ollama/", import.meta.url);
// Ollama's OpenAPI document: every body built here must pass its ChatRequest schema.
const openapi = parse(readFileSync(new URL("openapi.yaml", fixtures), "utf8"));
const chatRequest = Compile({ $defs: JSON.parse(JSON.stringify(openapi.components.schemas).replaceAll("#/components/schemas/", "#/$defs/")), $ref: "#/$defs/ChatRequest" });
const schemaErrors = (body: unknown) => [...chatRequest.Errors(body)].map((error) => `${error.instancePath} ${error.message}`);
const examples = JSON.parse(readFileSync(new URL("docs-api-chat-examples.json", fixtures), "utf8")) as { example: string; body: object }[];

// The schema of Ollama's documented structured-outputs example.
const Friend = Type.Object({ age: Type.Integer(), available: Type.Boolean() });

describe("ollama structured output", () => {
  it("sends the JSON Schema as format, with top_p and top_k as options, as Ollama's schema takes them", () => {
    const { body } = ollamaRequest(
      { messages: [{ role: "user", content: "Ollama is 22 years old and busy saving the world." }], topP: 0.9, topK: 40 },
      { model: "llama3.1", effort: "off", output: resolveOutput({ schema: Friend }) },
    );
    expect(body.format).toEqual({ type: "object", properties: { age: { type: "integer" }, available: { type: "boolean" } }, required: ["age", "available"] });
    expect(body.options).toEqual({ top_p: 0.9, top_k: 40 });
    expect(schemaErrors(body)).toEqual([]);
  });

  describe("over HTTP", () => {
    const server = useScriptedServer(beforeEach, afterEach, (server) => server.route("POST", "/api/show", { headers: { "content-type": "application/json" }, body: JSON.stringify({ capabilities: ["completion"] }) }));

    it("replays the documented structured-outputs reply to its value, at no cost", async () => {
      const documented = examples.find((entry) => entry.example === "Chat request (Structured outputs)");
      server.reply({ headers: { "content-type": "application/x-ndjson" }, body: `${JSON.stringify(documented?.body)}\n` });
      const model = createOllamaModel({ provider: "ollama", model: "llama3.1", baseUrl: server.url });
      const reply = await model.chat({ messages: [{ role: "user", content: "Ollama is 22 years old and busy saving the world." }], output: { schema: Friend } });
      expect(reply.output).toEqual({ age: 22, available: false });
      expect(reply.stats?.costUsd).toBe(0);
      expect(server.requests[0]?.json().format).toEqual(resolveOutput({ schema: Friend }).jsonSchema);
    });

    it("claims no cost for Ollama's cloud models", async () => {
      const documented = examples.find((entry) => entry.example === "Chat request (No streaming)");
      server.reply({ headers: { "content-type": "application/json" }, body: JSON.stringify(documented?.body) });
      const reply = await createOllamaModel({ provider: "ollama", model: "gpt-oss:120b-cloud", baseUrl: server.url }).chat({ messages: [{ role: "user", content: "Hi" }] });
      expect(reply.stats).toBeDefined();
      expect(reply.stats?.costUsd).toBeUndefined();
    });
  });
});
