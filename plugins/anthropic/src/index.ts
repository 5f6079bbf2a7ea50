import { anthropicPlugin } from "./plugin.js";

export default anthropicPlugin;
export { anthropicPlugin };
export { ANTHROPIC_BASE_URL, ANTHROPIC_DEFAULT_MAX_TOKENS, ANTHROPIC_VERSION, AnthropicSettings, createAnthropicModel } from "./anthropic-model.js";
export { ANTHROPIC, anthropicRequestBody, type AnthropicBody, type AnthropicCall } from "./anthropic-request.js";
export { decodeAnthropicStream, messageAsEvents } from "./anthropic-stream.js";
