import { ollamaPlugin } from "./plugin.js";

export default ollamaPlugin;
export { ollamaPlugin };
export { OLLAMA_DEFAULT_HOST, OLLAMA_IDLE_TIMEOUT_MS, OllamaSettings, createOllamaModel, ollamaBaseUrl } from "./ollama-model.js";
export { OLLAMA, SYNTHETIC_CALL_ID_PREFIX, isServerCallId, ollamaRequestBody, thinkFor, type OllamaCall } from "./ollama-request.js";
export { decodeOllamaStream } from "./ollama-stream.js";
