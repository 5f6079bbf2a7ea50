import { PLUGIN_API_VERSION, defineProvider, definePlugin } from "@weft/sdk";
import { OLLAMA } from "./ollama-request.js";
import { OLLAMA_ENV, OllamaSettings, createOllamaModel } from "./ollama-model.js";

export const ollamaPlugin = definePlugin({
  meta: { name: "@weft/plugin-ollama", version: "0.1.0", api: PLUGIN_API_VERSION, env: OLLAMA_ENV, description: "Provider ollama: Ollama's native /api/chat" },
  options: OllamaSettings,
  setup(api, options) {
    api.hooks.providers.tap((registrar) => {
      registrar.add(defineProvider({ id: OLLAMA, description: "Ollama /api/chat (OLLAMA_HOST, default http://localhost:11434)", createModel: (spec) => createOllamaModel(spec, options) }));
    });
  },
});
