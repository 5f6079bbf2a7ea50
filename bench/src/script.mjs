/**
 * The fixed conversation every framework plays: what the user asks, what the mock model answers,
 * what the tools return. One place, so every runner and the mock server agree byte for byte.
 */

export const PROMPT = "What is the weather in Paris, and what is 2 + 2?";
export const SYSTEM = "You are a concise assistant. Use the tools to answer.";
export const ANSWER = "The weather in Paris is Sunny, 22C. And 2 + 2 = 4.";
/** Every run's answer must contain this. */
export const EXPECTED = "2 + 2 = 4";

export const WEATHER_ARGS = { city: "Paris" };
export const ADD_ARGS = { a: 2, b: 2 };

/** Fixed token usage the mock reports for each of the two turns. */
export const USAGE = [
  { prompt: 120, completion: 30 },
  { prompt: 180, completion: 20 },
];

export const MODEL_ID = "bench-model";

/** The tools' behaviour, shared by the MCP server and every in-process ("native") definition. */
export const TOOL_DESCRIPTIONS = {
  get_weather: "Current weather of a city.",
  add: "Adds two numbers.",
  echo: "Echoes the text back.",
};
export const weather = (city) => (city === "Paris" ? "Sunny, 22C" : "Cloudy, 15C");
export const add = (a, b) => String(a + b);
export const echo = (text) => String(text);

/** The extra in-process tool of the `full` scenario (its name must not end in get_weather or add). */
export const NATIVE_EXTRA = {
  name: "local_time",
  description: "The current local time of a city.",
  run: (city) => `${city}: 12:00`,
};

export const SCENARIOS = ["native", "mcp", "full"];

/** `n` earlier exchanges, the scale bench's prior messages (each run starts a session on them). */
export const priorMessages = (n) =>
  Array.from({ length: n }, (_, index) =>
    index % 2 === 0 ? { role: "user", content: `Earlier question ${index}: what was on the list?` } : { role: "assistant", content: `Earlier answer ${index}: three items, all done.` },
  );

/** The system prompt that asks the mock LLM for `n` tool calls in its first reply (see mock-llm-server.mjs). */
export const systemAskingCalls = (n) => `${SYSTEM}\n[calls: ${n}]`;

/** A runner's scale options from the profiling scripts' `--calls`, `--sessions` and `--prior` flags. */
export const scaleOptions = ({ calls, sessions, prior }) => ({
  ...(calls ? { system: systemAskingCalls(Number(calls)) } : {}),
  ...(sessions ? { sessions: Number(sessions) } : {}),
  ...(prior ? { prior: priorMessages(Number(prior)) } : {}),
});
