import { openrouterPlugin } from "./plugin.js";

export default openrouterPlugin;
export { openrouterPlugin };
export { CompatibleSettings, OPENROUTER_BASE_URL, OpenRouterSettings, createCompatibleModel, createOpenRouterModel } from "./chat-completions-model.js";
export { OPENAI_COMPATIBLE, OPENROUTER, chatCompletionsBody, effortFields, type ChatCompletionsCall, type EffortStyle } from "./chat-completions-request.js";
export { DONE, completionAsChunks, decodeChatCompletionsStream } from "./chat-completions-stream.js";
