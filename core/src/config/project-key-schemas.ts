import { EFFORTS } from "@weft/sdk";

type JsonSchema = Record<string, unknown>;

const nonEmptyString: JsonSchema = { type: "string", minLength: 1 };
const stringList: JsonSchema = { anyOf: [nonEmptyString, { type: "array", items: nonEmptyString }] };
const wholeNumber = (description: string): JsonSchema => ({ type: "integer", minimum: 0, description });

/**
 * The JSON Schema of each option the project reads itself (`PROJECT_OPTIONS`, checked by hand in
 * project-config.ts with errors that name the line), for `weft config schema`. A test holds the two
 * lists of keys equal.
 */
export const PROJECT_KEY_SCHEMAS: Record<string, JsonSchema> = {
  model: { type: "string", pattern: "^[^/\\s]+/\\S+$", description: "provider/model, e.g. anthropic/claude-sonnet-4-5; the provider's plugin loads by itself" },
  instructions: { ...nonEmptyString, description: "The agent's system prompt" },
  effort: { enum: [...EFFORTS], description: "How hard the model thinks" },
  plugins: { type: "array", description: "Plugins to enable: a name (short, package or path) or a one-key map of name to options" },
  disableTools: { ...stringList, description: "Tool names to drop, whatever source produced them" },
  maxIterations: wholeNumber("Model calls per turn; 0 for no limit"),
  deadline: wholeNumber("Bounds the load (MCP connections, agent cards), in milliseconds"),
  sessions: {
    description: "Where sessions are kept",
    oneOf: [
      { type: "object", properties: { store: { const: "memory" }, url: nonEmptyString }, required: ["store"], additionalProperties: false },
      { type: "object", properties: { store: { enum: ["sqlite", "postgres"] }, url: nonEmptyString }, required: ["store", "url"], additionalProperties: false },
    ],
  },
};

/** An entry of `agents:` the project runs itself (the remote entries are the A2A plugin's). */
export const LOCAL_AGENT_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    name: nonEmptyString,
    description: nonEmptyString,
    local: {
      type: "object",
      properties: {
        instructions: nonEmptyString,
        model: PROJECT_KEY_SCHEMAS.model,
        maxIterations: wholeNumber("0 for no limit"),
        tools: {
          type: "object",
          properties: { only: stringList, exclude: stringList },
          additionalProperties: false,
        },
      },
      required: ["instructions"],
      additionalProperties: false,
    },
  },
  required: ["name", "description", "local"],
  additionalProperties: false,
};
