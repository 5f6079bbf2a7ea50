import assert from "node:assert/strict";
import { defined } from "./defined.js";
import { drain } from "./drain.js";
import type { ChatModel, ChatRequest, StreamEvent } from "../chat-model.js";
import { OutputValidationError, ProviderError, WeftError, isAbortError } from "../errors.js";
import type { ToolCall } from "../message.js";
import { startScriptedServer, type ScriptedResponse, type ScriptedServer } from "./scripted-server.js";

/** The test framework's registration functions; vitest's and node:test's both fit. */
export interface ConformanceTestApi {
  describe(name: string, fn: () => void): unknown;
  it(name: string, fn: () => Promise<void>): unknown;
}

/** How the provider under test speaks on the wire: the bodies the scripted server answers with. */
export interface ConformanceWire {
  /** Content type of a streamed reply, e.g. `text/event-stream`. */
  contentType: string;
  /** A whole streamed reply saying `text`, as the chunks a server would write. */
  text(text: string): string[];
  /** A whole streamed reply making one tool call. */
  toolCall(call: ToolCall): string[];
  /** The reply of `text(text)` cut before its terminal event, ending cleanly at the HTTP level. */
  truncated(text: string): string[];
  /** The body of an HTTP error response. */
  errorBody(status: number, message: string): string;
  /**
   * A streamed reply that starts (HTTP 200) and then reports an overloaded / rate-limit error before
   * any content, as the provider's stream does. Checked when given: it must be retried like a 529.
   */
  overloadedBeforeContent?(): string[];
  /** The model a chat request body asks for (default `body.model`). */
  requestedModel?(body: any): string;
  /**
   * Side requests the provider makes about a model (capabilities, context window), answered outside
   * the reply queue: `{"GET /v1/models/conformance-model": {...}}`. A side request not listed here
   * takes the next queued reply, so list every one the provider makes.
   */
  routes?: Record<string, ScriptedResponse>;
}

/** The settings the suite creates models with; pass them on to the provider's `createModel`. */
export interface ConformanceSettings {
  baseUrl: string;
  model: string;
  models: string[];
  maxRetries: number;
  retryBaseDelayMs: number;
  maxRetryDelayMs: number;
  idleTimeoutMs: number;
  maxRetryAfterMs: number;
}

export interface ProviderConformanceOptions {
  /** Provider id, as `ChatModel.provider` reports it. */
  provider: string;
  wire: ConformanceWire;
  createModel(settings: ConformanceSettings): ChatModel | Promise<ChatModel>;
}

const MODEL = "conformance-model";
const OTHER_MODEL = "conformance-other";

/**
 * The behaviour every provider plugin shares, checked against a real HTTP server on 127.0.0.1:
 * a text reply, a tool call, stats, abort, retry on 503/408/409/524 and on an overloaded error event
 * before content, a Retry-After beyond the cap, an HTML page, image parts (sent or replaced with a
 * notice), no retry on 400, a truncated stream, and changeModel/changeEffort validation. Register it from a test file:
 *
 *   import { describe, it } from "vitest";
 *   runProviderConformance({ describe, it }, { provider: "anthropic", wire, createModel });
 */
export function runProviderConformance(test: ConformanceTestApi, options: ProviderConformanceOptions): void {
  const { provider, wire } = options;
  const question: ChatRequest = { messages: [{ role: "user", content: "Say hello." }] };

  async function withServer(run: (server: ScriptedServer, model: ChatModel) => Promise<void>): Promise<void> {
    const server = await startScriptedServer();
    for (const [route, reply] of Object.entries(wire.routes ?? {})) {
      const [method = "GET", path = "/"] = route.split(" ");
      server.route(method, path, reply);
    }
    try {
      const model = await options.createModel({
        baseUrl: server.url,
        model: MODEL,
        models: [MODEL, OTHER_MODEL],
        maxRetries: 2,
        retryBaseDelayMs: 1,
        maxRetryDelayMs: 20,
        idleTimeoutMs: 10_000,
        maxRetryAfterMs: 1_000,
      });
      await run(server, model);
    } finally {
      await server.close();
    }
  }

  const stream = (body: string[], status = 200) => ({ status, headers: { "content-type": wire.contentType }, body });
  const failure = (status: number, message: string) => ({
    status,
    headers: { "content-type": "application/json" },
    body: wire.errorBody(status, message),
  });
  const requestedModel = (body: any): string => (wire.requestedModel ? wire.requestedModel(body) : body.model);


  test.describe(`provider conformance: ${provider}`, () => {
    test.it("streams a text reply whose deltas add up to the final message, and chat() returns the same", async () => {
      await withServer(async (server, model) => {
        const text = "Hello there, conformance.";
        server.reply(stream(wire.text(text)), stream(wire.text(text)));
        const events = await drain(model.stream(question));
        const last = events.at(-1);
        assert.equal(last?.type, "done", "the last event is done");
        const deltas = events.filter((event) => event.type === "text").map((event) => event.delta);
        assert.ok(deltas.length > 0, "text arrives as deltas");
        assert.equal(deltas.join(""), text);
        const done = last.type === "done" ? last.message : undefined;
        assert.equal(done?.content, text);
        assert.equal(done?.model, `${provider}/${MODEL}`);
        assert.equal(typeof done?.stopReason, "string", "the provider's stop reason is kept");
        const message = await model.chat(question);
        assert.deepEqual(message, done);
        assert.equal(requestedModel(defined(server.requests[0]).json()), MODEL);
      });
    });

    test.it("reports stats: a usage event before done, the same stats on the message", async () => {
      await withServer(async (server, model) => {
        server.reply(stream(wire.text("Counting.")));
        const events = await drain(model.stream(question));
        const types = events.map((event) => event.type);
        assert.deepEqual(types.slice(-2), ["usage", "done"]);
        const usage = events.at(-2);
        const done = events.at(-1);
        assert.ok(usage?.type === "usage" && done?.type === "done");
        assert.deepEqual(done.message.stats, usage.stats);
        for (const key of ["promptTokens", "outputTokens", "totalTokens", "cacheReadTokens", "cacheWriteTokens"] as const) {
          assert.ok(Number.isInteger(usage.stats[key]) && usage.stats[key] >= 0, `${key} is a count`);
        }
        assert.ok(usage.stats.totalTokens > 0, "tokens were counted");
      });
    });

    test.it("returns a complete tool call, as a tool_call event before usage and done", async () => {
      await withServer(async (server, model) => {
        const call: ToolCall = { id: "call_conformance_1", name: "get_weather", arguments: { city: "Paris", days: 2 } };
        server.reply(stream(wire.toolCall(call)));
        const request: ChatRequest = {
          messages: [{ role: "user", content: "Weather in Paris?" }],
          tools: [{ name: "get_weather", description: "Weather forecast", inputSchema: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } } }],
        };
        const events = await drain(model.stream(request));
        const types = events.map((event) => event.type);
        assert.ok(types.indexOf("tool_call") >= 0 && types.indexOf("tool_call") < types.indexOf("done"));
        const done = events.at(-1);
        assert.ok(done?.type === "done");
        assert.deepEqual(done.message.toolCalls, [call]);
        assert.deepEqual(events.find((event) => event.type === "tool_call"), { type: "tool_call", call });
      });
    });

    test.it("ends the HTTP request at once when the caller aborts mid-stream", async () => {
      await withServer(async (server, model) => {
        server.reply({ ...stream(wire.truncated("Partial reply that never ends.")), hang: true });
        const controller = new AbortController();
        let caught: unknown;
        try {
          for await (const event of model.stream({ ...question, signal: controller.signal })) {
            if (event.type === "text") controller.abort();
          }
        } catch (error) {
          caught = error;
        }
        assert.ok(isAbortError(caught), `an abort error, got ${String(caught)}`);
        await server.disconnected(0);
      });
    });

    test.it("retries a 503 and then succeeds", async () => {
      await withServer(async (server, model) => {
        server.reply(failure(503, "overloaded, try later"), stream(wire.text("Second time lucky.")));
        const message = await model.chat(question);
        assert.equal(message.content, "Second time lucky.");
        assert.equal(server.requests.length, 2);
      });
    });

    test.it("retries 408, 409 and 524 like the other retryable statuses", async () => {
      await withServer(async (server, model) => {
        server.reply(failure(408, "timeout"), failure(409, "conflict"), stream(wire.text("Third time.")));
        assert.equal((await model.chat(question)).content, "Third time.");
        server.reply(failure(524, "origin timeout"), stream(wire.text("Again.")));
        assert.equal((await model.chat(question)).content, "Again.");
        assert.equal(server.requests.length, 5);
      });
    });

    test.it("fails at once when Retry-After asks for longer than maxRetryAfterMs, naming the wait", async () => {
      await withServer(async (server, model) => {
        server.reply({ ...failure(429, "slow down"), headers: { "content-type": "application/json", "retry-after": "3600" } }, stream(wire.text("never sent")));
        const error = await model.chat(question).then(
          () => assert.fail("a wait beyond the cap must fail"),
          (caught: unknown) => caught,
        );
        assert.ok(error instanceof ProviderError && error.status === 429, `a ProviderError with status 429, got ${String(error)}`);
        assert.match(error.message, /asked to wait 3600 s/);
        assert.equal(server.requests.length, 1);
      });
    });

    test.it("fails an HTTP 200 HTML page with an error that says what came back", async () => {
      await withServer(async (server, model) => {
        server.reply({ status: 200, headers: { "content-type": "text/html" }, body: "<!DOCTYPE html><html><head><title>Proxy login</title></head></html>" });
        const error = await model.chat(question).then(
          () => assert.fail("an HTML page must fail"),
          (caught: unknown) => caught,
        );
        assert.ok(error instanceof ProviderError, `a ProviderError, got ${String(error)}`);
        // The page's title where the provider reads the body itself (a wrapped SDK may see only its content type).
        assert.match(error.message, /an HTML page( titled "Proxy login")? instead of the API's answer/);
      });
    });

    if (wire.overloadedBeforeContent) {
      const overloaded = wire.overloadedBeforeContent;
      test.it("retries an overloaded error event that came before any content, streaming only the good reply", async () => {
        await withServer(async (server, model) => {
          server.reply(stream(overloaded()), stream(wire.text("After the overload.")));
          const events = await drain(model.stream(question));
          const text = events.map((event) => (event.type === "text" ? event.delta : "")).join("");
          assert.equal(text, "After the overload.");
          assert.equal(server.requests.length, 2);
        });
      });
    }

    test.it("sends an image part to the wire, or says in a notice that the model cannot take it", async () => {
      await withServer(async (server, model) => {
        const png = "iVBORw0KGgoAAAANSUhEUg==";
        server.reply(stream(wire.text("I see it.")));
        const events = await drain(
          model.stream({ messages: [{ role: "user", content: "What is this?", parts: [{ type: "text", text: "What is this?" }, { type: "image", mediaType: "image/png", data: png }] }] }),
        );
        const sent = server.requests[0]?.body ?? "";
        const noticed = events.some((event) => event.type === "notice" && event.code === "image-dropped");
        assert.ok(sent.includes(png) !== noticed, "the image went to the wire, or a notice said it was replaced (not both, not neither)");
        assert.ok(sent.includes("What is this?"), "the text part went");
      });
    });

    test.it("answers a structured-output request with the validated value, streams partial objects, repairs once, then fails typed", async () => {
      await withServer(async (server, model) => {
        const schema = { type: "object", properties: { city: { type: "string" }, celsius: { type: "number" } }, required: ["city", "celsius"] };
        const ask = { messages: [{ role: "user" as const, content: "Weather in Oslo?" }], output: { schema, name: "weather" } };
        server.reply(stream(wire.text('{"city": "Oslo", "celsius": "cold"}')), stream(wire.text('{"city": "Oslo", "celsius": 3}')));
        const events = await drain(model.stream(ask));
        const done = events.at(-1);
        assert.deepEqual(done?.type === "done" ? done.message.output : undefined, { city: "Oslo", celsius: 3 }, "the repaired reply's value");
        assert.ok(events.some((event) => event.type === "output"), "partial objects stream as output events");
        assert.ok(events.some((event) => event.type === "notice" && event.code === "output-repair"), "the repair round is announced");
        assert.ok((server.requests[1]?.body ?? "").includes("/celsius: must be number"), "the repair request names the failing path");
        assert.ok((server.requests[0]?.body ?? "").includes("celsius"), "the schema went to the wire (native mode, answer tool or instruction)");
        server.reply(stream(wire.text("no JSON here")), stream(wire.text("still none")));
        const failed = await model.chat(ask).then(
          () => undefined,
          (error: unknown) => error,
        );
        assert.ok(failed instanceof OutputValidationError && failed.text === "still none", "a second invalid reply is an OutputValidationError with the raw text");
      });
    });

    test.it("fails a 400 at once, with the provider's message, without retrying", async () => {
      await withServer(async (server, model) => {
        server.reply(failure(400, "bad request from conformance"), stream(wire.text("never sent")));
        const error = await model.chat(question).then(
          () => assert.fail("a 400 must fail"),
          (caught: unknown) => caught,
        );
        assert.ok(error instanceof ProviderError, `a ProviderError, got ${String(error)}`);
        assert.equal(error.status, 400);
        assert.equal(error.retries, 0);
        assert.equal(error.provider, provider);
        assert.equal(error.providerMessage, "bad request from conformance");
        assert.equal(server.requests.length, 1);
      });
    });

    test.it("treats a stream that ends before its terminal event as an error, never a short answer", async () => {
      await withServer(async (server, model) => {
        server.reply(stream(wire.truncated("Cut short")));
        const seen: StreamEvent["type"][] = [];
        const error = await (async () => {
          for await (const event of model.stream(question)) seen.push(event.type);
        })().then(
          () => assert.fail("a truncated stream must fail"),
          (caught: unknown) => caught,
        );
        assert.ok(error instanceof ProviderError, `a ProviderError, got ${String(error)}`);
        assert.ok(!seen.includes("done"), "no done event for a cut stream");
      });
    });

    test.it("validates changeModel and changeEffort before changing anything; a call keeps its settings", async () => {
      await withServer(async (server, model) => {
        assert.equal(model.model, MODEL);
        assert.deepEqual([...model.models].sort(), [MODEL, OTHER_MODEL].sort());
        assert.throws(() => model.changeModel("not-a-listed-model"), (error: unknown) => error instanceof WeftError && error.code === "MODEL_INVALID");
        assert.equal(model.model, MODEL);
        const effort = model.effort;
        assert.throws(() => model.changeEffort("extreme" as never), (error: unknown) => error instanceof WeftError && error.code === "EFFORT_INVALID");
        assert.equal(model.effort, effort);

        model.changeModel(OTHER_MODEL);
        model.changeEffort("high");
        assert.equal(model.model, OTHER_MODEL);
        assert.equal(model.effort, "high");
        server.reply(stream(wire.text("From the other model.")));
        const events = model.stream(question);
        model.changeModel(MODEL); // after the call started: it keeps OTHER_MODEL
        const done = (await drain(events)).at(-1);
        assert.ok(done?.type === "done");
        assert.equal(done.message.model, `${provider}/${OTHER_MODEL}`);
        assert.equal(requestedModel(defined(server.requests[0]).json()), OTHER_MODEL);
      });
    });
  });
}
