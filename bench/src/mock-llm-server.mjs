/**
 * The mock LLM: a keep-alive HTTP server on 127.0.0.1 speaking the OpenAI Chat Completions wire
 * (streaming and not) and the Anthropic Messages wire (streaming and not), answering by the fixed
 * script: turn 1 asks for get_weather and add in parallel, turn 2 (tool results present) answers.
 * Tool names are matched by suffix to what the framework advertised (MCP adapters prefix them).
 */
import { createServer } from "node:http";
import { ADD_ARGS, ANSWER, MODEL_ID, USAGE, WEATHER_ARGS, add, weather } from "./script.mjs";

/** Finds the advertised name for a tool: exact, else the one ending in `_<name>`/`-<name>`/`<name>`. */
export function matchTool(names, wanted) {
  if (names.includes(wanted)) return wanted;
  return (
    names.find((name) => name.endsWith(`_${wanted}`) || name.endsWith(`-${wanted}`) || name.endsWith(`.${wanted}`)) ??
    names.find((name) => name.endsWith(wanted))
  );
}

/**
 * The calls of turn 1, named as the request advertised them; throws a readable error when absent.
 * `count` (the scale bench's `[calls: N]`): `add`, then `get_weather`, then `echo` up to N calls.
 */
function plannedCalls(names, requestId, count) {
  const weather = matchTool(names, "get_weather");
  const add = matchTool(names, "add");
  const echo = matchTool(names, "echo");
  if (!weather || !add || (count > 2 && !echo)) {
    throw new Error(`the request must advertise get_weather, add (and echo for more calls); it advertised [${names.slice(0, 20).join(", ")}]`);
  }
  if (count === undefined) {
    return [
      { id: `call_${requestId}_weather`, name: weather, arguments: JSON.stringify(WEATHER_ARGS) },
      { id: `call_${requestId}_add`, name: add, arguments: JSON.stringify(ADD_ARGS) },
    ];
  }
  return Array.from({ length: count }, (_, index) => {
    if (index === 0) return { id: `call_${requestId}_add`, name: add, arguments: JSON.stringify(ADD_ARGS) };
    if (index === 1) return { id: `call_${requestId}_weather`, name: weather, arguments: JSON.stringify(WEATHER_ARGS) };
    return { id: `call_${requestId}_echo${index}`, name: echo, arguments: JSON.stringify({ text: `e${index}` }) };
  });
}

/** `[calls: N]` in the system prompt asks for N calls in turn 1 (the scale bench); none: the script's two. */
function requestedCalls(body) {
  const system = body.messages?.find((message) => message.role === "system");
  const match = /\[calls: (\d+)\]/.exec(textOf(system?.content ?? ""));
  return match ? Number(match[1]) : undefined;
}

/** Text of a message or block content: a string, or an array of text parts. */
const textOf = (content) =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((part) => textOf(part.text ?? part.content ?? "")).join("") : "";

function openAiToolResults(body) {
  return (body.messages ?? []).filter((message) => message.role === "tool").map((message) => textOf(message.content));
}

function anthropicToolResults(body) {
  return (body.messages ?? []).flatMap((message) =>
    Array.isArray(message.content) ? message.content.filter((block) => block.type === "tool_result").map((block) => textOf(block.content)) : [],
  );
}

/** A tool result's text and, where frameworks serialise MCP content blocks as JSON, every string in it. */
function stringsOf(text) {
  const strings = [text.trim()];
  const walk = (value) => {
    if (typeof value === "string") strings.push(value.trim());
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  try {
    walk(JSON.parse(text));
  } catch {
    // Plain text.
  }
  return strings;
}

/**
 * Turn 2's answer: the scripted one only when both tools really ran (their outputs came back), so a
 * framework that fed back errors fails the correctness check instead of passing on the script.
 */
function finalAnswer(results, count) {
  const values = results.flatMap(stringsOf);
  const ran =
    count === undefined
      ? values.includes(weather(WEATHER_ARGS.city)) && values.includes(add(ADD_ARGS.a, ADD_ARGS.b))
      : results.length === count && values.includes(add(ADD_ARGS.a, ADD_ARGS.b));
  return ran ? ANSWER : `The tool results were not the tools' outputs: ${JSON.stringify(results)}`;
}

const deltasOf = (text) => text.match(/.{1,12}/gs) ?? [""];

function openAiUsage(turn) {
  const { prompt, completion } = USAGE[turn];
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function anthropicUsage(turn) {
  return { input_tokens: USAGE[turn].prompt, output_tokens: USAGE[turn].completion };
}

function openAiResponse(body, requestId) {
  const names = (body.tools ?? []).map((tool) => tool.function?.name ?? tool.name);
  const results = openAiToolResults(body);
  const turn = results.length > 0 ? 1 : 0;
  const count = requestedCalls(body);
  const answer = turn === 1 ? finalAnswer(results, count) : "";
  const calls = turn === 0 ? plannedCalls(names, requestId, count) : [];
  const id = `chatcmpl-${requestId}`;
  const created = 1_700_000_000;
  const toolCalls = calls.map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  const finishReason = turn === 0 ? "tool_calls" : "stop";
  if (!body.stream) {
    return {
      json: {
        id,
        object: "chat.completion",
        created,
        model: MODEL_ID,
        choices: [
          {
            index: 0,
            message: turn === 0 ? { role: "assistant", content: null, tool_calls: toolCalls } : { role: "assistant", content: answer },
            finish_reason: finishReason,
          },
        ],
        usage: openAiUsage(turn),
      },
    };
  }
  const chunk = (delta, finish = null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model: MODEL_ID,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const events = [chunk({ role: "assistant", content: turn === 0 ? null : "" })];
  if (turn === 0) {
    for (const [index, call] of toolCalls.entries()) events.push(chunk({ tool_calls: [{ index, ...call }] }));
  } else {
    for (const delta of deltasOf(answer)) events.push(chunk({ content: delta }));
  }
  events.push(chunk({}, finishReason));
  if (body.stream_options?.include_usage) {
    events.push({ id, object: "chat.completion.chunk", created, model: MODEL_ID, choices: [], usage: openAiUsage(turn) });
  }
  return { sse: [...events.map((event) => `data: ${JSON.stringify(event)}\n\n`), "data: [DONE]\n\n"] };
}

function anthropicResponse(body, requestId) {
  const names = (body.tools ?? []).map((tool) => tool.name);
  const results = anthropicToolResults(body);
  const turn = results.length > 0 ? 1 : 0;
  const calls = turn === 0 ? plannedCalls(names, requestId) : [];
  const id = `msg_${requestId}`;
  const stopReason = turn === 0 ? "tool_use" : "end_turn";
  const content =
    turn === 0
      ? calls.map((call) => ({ type: "tool_use", id: call.id.replace("call_", "toolu_"), name: call.name, input: JSON.parse(call.arguments) }))
      : [{ type: "text", text: finalAnswer(results) }];
  if (!body.stream) {
    return {
      json: { id, type: "message", role: "assistant", model: MODEL_ID, content, stop_reason: stopReason, stop_sequence: null, usage: anthropicUsage(turn) },
    };
  }
  const events = [
    ["message_start", { type: "message_start", message: { id, type: "message", role: "assistant", model: MODEL_ID, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: USAGE[turn].prompt, output_tokens: 1 } } }],
  ];
  content.forEach((block, index) => {
    if (block.type === "tool_use") {
      events.push(["content_block_start", { type: "content_block_start", index, content_block: { ...block, input: {} } }]);
      events.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } }]);
    } else {
      events.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }]);
      for (const text of deltasOf(block.text)) {
        events.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text } }]);
      }
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push(["message_delta", { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: anthropicUsage(turn) }]);
  events.push(["message_stop", { type: "message_stop" }]);
  return { sse: events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`) };
}

function send(res, reply) {
  if (reply.json) {
    const text = JSON.stringify(reply.json);
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  // One write per event, as a real server flushes them.
  for (const event of reply.sse) res.write(event);
  res.end();
}

function fail(res, status, message) {
  const text = JSON.stringify({ error: { message, type: "invalid_request_error" } });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Starts the server; `counts` tallies requests (`modelCalls`: the POSTs) so the orchestrator can check
 * each framework made exactly two model calls per run.
 */
export async function startMockLlmServer() {
  const counts = { total: 0, modelCalls: 0, errors: 0, lastError: undefined };
  let nextId = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      counts.total++;
      const requestId = ++nextId;
      const path = new URL(req.url, "http://x").pathname;
      try {
        if (req.method === "GET" && path.endsWith("/models")) {
          send(res, { json: { object: "list", data: [{ id: MODEL_ID, object: "model", context_length: 128000 }] } });
          return;
        }
        if (req.method === "GET" && path.includes("/models/")) {
          // Anthropic's model lookup.
          send(res, { json: { id: MODEL_ID, type: "model", display_name: MODEL_ID, max_input_tokens: 200000 } });
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
        if (req.method === "POST") counts.modelCalls++;
        if (req.method === "POST" && path.endsWith("/chat/completions")) return send(res, openAiResponse(body, requestId));
        if (req.method === "POST" && path.endsWith("/messages")) return send(res, anthropicResponse(body, requestId));
        counts.errors++;
        counts.lastError = `${req.method} ${path}`;
        fail(res, 404, `the mock LLM serves POST /v1/chat/completions and POST /v1/messages, not ${req.method} ${path}`);
      } catch (error) {
        counts.errors++;
        counts.lastError = error.message;
        fail(res, 400, error.message);
      }
    });
  });
  server.keepAliveTimeout = 120_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Run alone (`node src/mock-llm-server.mjs`) to poke at it with curl.
if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startMockLlmServer();
  console.log(server.url);
}
