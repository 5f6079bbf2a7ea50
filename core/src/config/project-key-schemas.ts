import { EFFORTS } from "@weft/sdk";
import { type JsonSchema, worded } from "./schema-check.js";

const described = (description: string | undefined): JsonSchema => (description ? { description } : {});
const text = (description?: string): JsonSchema => worded({ type: "string", minLength: 1, ...described(description) }, "expected a non-empty string");
const nonEmptyString = text();
const stringList = (description?: string): JsonSchema =>
  worded({ anyOf: [nonEmptyString, { type: "array", items: nonEmptyString }], ...described(description) }, "expected a list of strings");
const wholeNumber = (description: string, meaning: string): JsonSchema =>
  worded({ type: "integer", minimum: 0, description }, `expected a whole number (${meaning})`);

const model = worded(
  { allOf: [nonEmptyString, { type: "string", pattern: "^[^/\\s]+/\\S+$" }], description: "provider/model, e.g. anthropic/claude-sonnet-4-5; the provider's plugin loads by itself" },
  (value) => `expected provider/model (e.g. anthropic/claude-sonnet-4-5), got "${String(value)}"`,
);

const sessionsShape = "expected { store: memory | sqlite | postgres, url: <database file or postgres:// URL> }";

/**
 * `plugins:` with `options` as the schema of each named entry's options (`weft config schema` fills it in
 * from the installed plugins; the project's own check leaves it empty).
 */
export function pluginsSchema(options: Record<string, JsonSchema>): JsonSchema {
  const entry = worded(
    {
      anyOf: [
        { type: "string", minLength: 1 },
        {
          type: "object",
          minProperties: 1,
          maxProperties: 1,
          properties: options,
          additionalProperties: worded({ anyOf: [{ type: "null" }, { type: "object" }] }, "plugin options must be a map"),
        },
      ],
    },
    "expected a plugin name or a one-key map of name to options (e.g. - files: { root: ./workspace })",
  );
  return worded(
    { type: "array", items: entry, description: "Plugins to enable: a name (short, package or path) or a one-key map of name to options" },
    "expected a list of plugin names or one-key maps of name to options",
  );
}

/**
 * The options the project reads itself, as JSON Schema: what `weft config schema` prints, and what
 * project-config.ts checks a config with (in the words each node carries, at the value's line).
 */
export const PROJECT_KEY_SCHEMAS: Record<string, JsonSchema> = {
  model,
  instructions: text("The agent's system prompt"),
  effort: worded({ enum: [...EFFORTS], description: "How hard the model thinks" }, (value) => `expected one of ${EFFORTS.join(", ")}, got ${JSON.stringify(value)}`),
  plugins: pluginsSchema({}),
  disableTools: stringList("Tool names to drop, whatever source produced them"),
  maxIterations: wholeNumber("Model calls per turn; 0 for no limit", "0 for no limit"),
  deadline: wholeNumber("Bounds the load (MCP connections, agent cards), in milliseconds", "milliseconds"),
  sessions: worded(
    {
      type: "object",
      description: "Where sessions are kept",
      properties: { store: worded({ enum: ["memory", "sqlite", "postgres"] }, sessionsShape), url: nonEmptyString },
      required: ["store"],
      additionalProperties: false,
      if: { type: "object", properties: { store: { const: "memory" } } },
      else: worded({ type: "object", required: ["url"] }, (value) => `the ${String(isStore(value))} store needs a url (${sessionsShape})`),
    },
    sessionsShape,
  ),
};

function isStore(value: unknown): unknown {
  return typeof value === "object" && value !== null && "store" in value ? value.store : undefined;
}

const localTools = worded(
  { type: "object", properties: { only: stringList(), exclude: stringList() }, additionalProperties: false },
  "expected { only: [<tool>, ...] } or { exclude: [<tool>, ...] }",
  "a local agent",
);

/** An entry of `agents:` the project runs itself (the remote entries are the A2A plugin's). */
export const LOCAL_AGENT_SCHEMA: JsonSchema = worded(
  {
    type: "object",
    properties: {
      name: nonEmptyString,
      description: nonEmptyString,
      local: worded(
        {
          type: "object",
          properties: { instructions: nonEmptyString, model, tools: localTools, maxIterations: wholeNumber("0 for no limit", "0 for no limit") },
          required: ["instructions"],
          additionalProperties: false,
        },
        "expected { instructions, model?, tools?: { only | exclude }, maxIterations? }",
        "a local agent",
      ),
    },
    required: ["name", "description", "local"],
    additionalProperties: false,
  },
  undefined,
  "a local agent",
);

/**
 * Keys a plugin consumes and describes, that the project checks too, as far as it reads them: the
 * trust check reads `mcp` and `skills` before any plugin loads, and `agents` holds the local agents.
 */
export const SHARED_KEY_SCHEMAS: Record<string, JsonSchema> = {
  mcp: worded({ anyOf: [{ type: "string" }, { type: "object" }] }, "expected a path to an mcp.json file or an inline map of servers"),
  skills: stringList(),
  agents: worded(
    {
      type: "array",
      items: worded(
        // An entry with `local` is a local agent; any other needs the card of a remote one.
        {
          type: "object",
          dependentSchemas: { local: LOCAL_AGENT_SCHEMA },
          if: { type: "object", required: ["local"] },
          else: { type: "object", properties: { card: nonEmptyString }, required: ["card"] },
        },
        "expected { card: <agent card URL>, name?, headers?, timeout? } or { name, description, local: { instructions } }",
      ),
    },
    "expected a list of agents ({ card: <agent card URL> })",
  ),
};
