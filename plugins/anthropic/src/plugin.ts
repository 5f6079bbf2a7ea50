import { PLUGIN_API_VERSION, defineProvider, definePlugin } from "@weft/sdk";
import { ANTHROPIC } from "./anthropic-request.js";
import { ANTHROPIC_ENV, AnthropicSettings, createAnthropicModel } from "./anthropic-model.js";

export const anthropicPlugin = definePlugin({
  meta: { name: "@weft/plugin-anthropic", version: "0.1.0", api: PLUGIN_API_VERSION, env: ANTHROPIC_ENV, description: "Provider anthropic: the Anthropic Messages API" },
  options: AnthropicSettings,
  setup(api, options) {
    api.hooks.providers.tap((registrar) => {
      registrar.add(
        defineProvider({
          id: ANTHROPIC,
          description: "Anthropic Messages API (ANTHROPIC_API_KEY)",
          createModel: (spec) => createAnthropicModel(spec, options),
        }),
      );
    });
  },
});
