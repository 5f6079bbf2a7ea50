export { toAiSdkTools, aiSdkToolApproval, type AiSdkToolsOptions, type WeftToolHost } from "./to-ai-sdk-tools.js";
export { createAiSdkModel, toStats, type AiSdkModelOptions, type LanguageModelFactory } from "./ai-sdk-model.js";
export { toAiSdkPrompt, toCallOptions } from "./ai-sdk-prompt.js";
export { aiSdkProvider, aiSdkProviderOf, aiSdkPlugin, AiSdkModelSettings, AiSdkPluginOptions } from "./ai-sdk-provider.js";
export { aiSdkPlugin as default } from "./ai-sdk-provider.js";
