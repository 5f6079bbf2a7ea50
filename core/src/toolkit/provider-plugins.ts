/** Which first-party plugin registers each provider id, for loading it when only `model:` names it. */
export const PROVIDER_PLUGINS: Record<string, string> = {
  anthropic: "@weft/plugin-anthropic",
  openrouter: "@weft/plugin-openrouter",
  "openai-compatible": "@weft/plugin-openrouter",
  ollama: "@weft/plugin-ollama",
};
