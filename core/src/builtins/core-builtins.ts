import { BUILTINS_RANK, PLUGIN_API_VERSION, builtinSwitches, builtinsSchema, defineConfigKey, definePlugin, Type } from "@weft/sdk";
import { questionTool } from "./question.js";
import { memoryTodoList } from "./todo-list.js";
import { todowriteTool } from "./todowrite.js";

const options = Type.Object({
  /** `{ question: false }` drops a tool; other names are ignored, so one `builtins.tools` map serves every pack. */
  tools: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
});

/**
 * The core's built-in tools, `question` and `todowrite`, as a plugin the toolkit enables with the
 * other built-ins: `kernel.use(coreBuiltins, { tools: { question: false } })`.
 */
export const coreBuiltins = definePlugin({
  meta: { name: "@weft/core/builtins", version: "0.1.0", api: PLUGIN_API_VERSION, description: "question and todowrite" },
  config: {
    builtins: defineConfigKey({
      schema: builtinsSchema,
      rank: BUILTINS_RANK,
      toOptions: (value, context) => {
        const tools = builtinSwitches(value, context);
        return tools && { tools };
      },
    }),
  },
  options,
  setup(api, { tools = {} }) {
    // Without an agent session (a tool called by hand) the list lives as long as the plugin.
    const fallback = memoryTodoList();
    if (tools.question !== false) api.tools.add(questionTool());
    if (tools.todowrite !== false) api.tools.add(todowriteTool(() => fallback));
  },
});
