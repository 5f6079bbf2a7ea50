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
