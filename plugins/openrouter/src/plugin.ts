import { PLUGIN_API_VERSION, defineProvider, definePlugin } from "@weft/sdk";
import { OPENAI_COMPATIBLE, OPENROUTER } from "./chat-completions-request.js";
import { OPENROUTER_ENV, OpenRouterSettings, createCompatibleModel, createOpenRouterModel } from "./chat-completions-model.js";

export const openrouterPlugin = definePlugin({
  meta: {
    name: "@weft/plugin-openrouter",
    version: "0.1.0",
    api: PLUGIN_API_VERSION,
    env: OPENROUTER_ENV,
    description: "Providers openrouter and openai-compatible: OpenRouter and any Chat Completions endpoint",
  },
  options: OpenRouterSettings,
  setup(api, options) {
    const { compatible, ...openrouter } = options;
    api.hooks.providers.tap((registrar) => {
      registrar.add(defineProvider({ id: OPENROUTER, description: "OpenRouter (OPENROUTER_API_KEY)", createModel: (spec) => createOpenRouterModel(spec, openrouter) }));
      registrar.add(
        defineProvider({
          id: OPENAI_COMPATIBLE,
          description: "Any OpenAI-compatible Chat Completions endpoint (baseUrl required)",
          createModel: (spec) => createCompatibleModel(spec, compatible ?? {}),
        }),
      );
    });
  },
});
