import { pathToFileURL } from "node:url";
import { resolve as resolveModule } from "import-meta-resolve";
import type { Static } from "typebox";
import { definePlugin, defineProvider, errorMessage, PLUGIN_API_VERSION, Type, WeftError } from "@weft/sdk";
import { providerSettingsProperties, resolveModelSettings } from "@weft/sdk/provider";
import type { Plugin, Provider } from "@weft/sdk";
import { createAiSdkModel, type LanguageModelFactory } from "./ai-sdk-model.js";

const { models, effort, maxRetries, maxTokens, retryBaseDelayMs, maxRetryDelayMs, idleTimeoutMs, contextWindow } = providerSettingsProperties;

/** The model settings weft itself applies; the AI SDK provider's own (key, URL, headers) go to its factory. */
export const AiSdkModelSettings = Type.Object({ models, effort, maxRetries, maxTokens, retryBaseDelayMs, maxRetryDelayMs, idleTimeoutMs, contextWindow });
export type AiSdkModelSettings = Static<typeof AiSdkModelSettings>;

const META = { name: "@weft/ai-sdk", version: "0.1.0", api: PLUGIN_API_VERSION } as const;

/** A weft provider over an AI SDK provider, for code that registers it itself. */
export function aiSdkProviderOf(id: string, factory: LanguageModelFactory, defaults: AiSdkModelSettings = {}): Provider {
  return defineProvider({
    id,
    description: `AI SDK provider ${id}`,
    createModel: (spec) => {
      const settings = resolveModelSettings(AiSdkModelSettings, defaults, spec);
      return createAiSdkModel({ ...settings, provider: id, factory });
    },
  });
}

/**
 * A plugin registering an AI SDK provider under a weft provider id:
 * `plugins: [{ plugin: aiSdkProvider("gemini", google) }]`, then `kernel.createModel("gemini/gemini-2.5-flash")`.
 */
export function aiSdkProvider(id: string, factory: LanguageModelFactory, defaults: AiSdkModelSettings = {}): Plugin {
  return definePlugin({
    // Named per provider id, so that several AI SDK providers can be enabled side by side.
    meta: { ...META, name: `${META.name}#${id}`, description: `AI SDK provider ${id}` },
    setup(api) {
      api.hooks.providers.tap((registrar) => void registrar.add(aiSdkProviderOf(id, factory, defaults)));
    },
  });
}

const ProviderEntry = Type.Object({
  package: Type.String({ minLength: 1, description: "The AI SDK provider package, e.g. @ai-sdk/google" }),
  factory: Type.String({ minLength: 1, description: "Its create function, e.g. createGoogleGenerativeAI" }),
  options: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "Passed to the factory (apiKey, baseURL, headers)" })),
  settings: Type.Optional(AiSdkModelSettings),
});

export const AiSdkPluginOptions = Type.Object({
  providers: Type.Record(Type.String({ pattern: "^[a-z0-9][a-z0-9-]*$" }), ProviderEntry, { description: "weft provider id → AI SDK package and factory" }),
});

/**
 * The config form: each entry names an AI SDK package and its factory, resolved from the config
 * file's folder (the project's node_modules decide what is installed).
 *
 *   plugins:
 *     - "@weft/ai-sdk": { providers: { gemini: { package: "@ai-sdk/google", factory: createGoogleGenerativeAI } } }
 */
export const aiSdkPlugin = definePlugin({
  meta: { ...META, description: "AI SDK providers as weft providers, by package and factory" },
  options: AiSdkPluginOptions,
  async setup(api, options) {
    const providers: Provider[] = [];
    for (const [id, entry] of Object.entries(options.providers)) {
      const factory = await loadFactory(id, entry.package, entry.factory, api.baseDir);
      let languageModels: unknown;
      try {
        languageModels = factory(entry.options ?? {});
      } catch (error) {
        throw new WeftError("PLUGIN_SETUP_FAILED", `providers.${id}: ${entry.package} ${entry.factory}() failed: ${errorMessage(error)}`, { cause: error });
      }
      if (typeof languageModels !== "function" && !hasLanguageModel(languageModels)) {
        throw new WeftError("PLUGIN_SETUP_FAILED", `providers.${id}: ${entry.package} ${entry.factory}() returned no AI SDK provider (callable, or with languageModel)`);
      }
      providers.push(aiSdkProviderOf(id, languageModels as LanguageModelFactory, entry.settings));
    }
    api.hooks.providers.tap((registrar) => {
      for (const provider of providers) registrar.add(provider);
    });
  },
});

async function loadFactory(id: string, name: string, exportName: string, baseDir: string): Promise<(options: unknown) => unknown> {
  let module: Record<string, unknown>;
  try {
    module = (await import(resolveModule(name, pathToFileURL(`${baseDir}/`).href))) as Record<string, unknown>;
  } catch (error) {
    throw new WeftError("PLUGIN_NOT_FOUND", `providers.${id}: cannot load ${name} from ${baseDir} (${errorMessage(error)}); install it with npm install ${name}`, {
      cause: error,
    });
  }
  const factory = module[exportName];
  if (typeof factory !== "function") {
    const exported = Object.keys(module).filter((key) => typeof module[key] === "function" && key.startsWith("create"));
    throw new WeftError("PLUGIN_INVALID", `providers.${id}: ${name} exports no function ${exportName}; it has ${exported.join(", ") || "no create* functions"}`);
  }
  return factory as (options: unknown) => unknown;
}

function hasLanguageModel(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { languageModel?: unknown }).languageModel === "function";
}
