import { fileURLToPath } from "node:url";
import { CONFIG_KEY_PLUGINS, SERVICE_PROVIDERS, WeftError, executeWithAnswers, isWeftError, stderrLogger, toAnthropicTools, toOpenAITools } from "@weft/sdk";
import type { ExecuteOptions, Kernel, McpHost, McpServerStatus, ToolDescriptor, AnyTool, ToolCallRequest, ToolResult, WaitFor, WeftServices } from "@weft/sdk";
import type { AnthropicTool, OpenAITool } from "@weft/sdk";
import { importPlugin, importPluginFrom } from "../config/plugin-resolver.js";
import { coreBuiltins } from "../builtins/core-builtins.js";
import { createKernel } from "../kernel.js";
import { dropDuplicateTools } from "./duplicate-tools.js";
import { assertPluginsInstalled } from "./missing-plugins.js";
import { firstPartyPluginsOf, planPlugins } from "./plugin-plan.js";
import { CORE_OPTION_NAMES, type PluginSpec, type ToolkitOptions } from "./toolkit-options.js";

/** One tool list from every source, with the one execute path. */
export interface Toolkit {
  /** The kernel underneath: give it (or the toolkit) to `createAgent`. */
  readonly kernel: Kernel;
  /** Sorted by name; live (an MCP server's list change shows here). */
  readonly tools: ToolDescriptor[];
  /** The system-prompt text the sources contribute (the skills catalog). */
  readonly prompt: string;
  readonly waitFor?: WaitFor;
  /**
   * Runs a call through the kernel's execute path; never rejects. With the toolkit's `waitFor`, a
   * `pending` request is answered the way the agent loop does (accept resumes the call; a decline,
   * cancel or failed wait is the result). The agent itself uses `kernel`, which leaves `pending` to it.
   */
  execute(call: ToolCallRequest, options?: ExecuteOptions): Promise<ToolResult>;
  mcpStatus(): McpServerStatus[];
  /** The MCP host (start, stop, resources, prompts), when an MCP config was given. */
  mcp(): McpHost | undefined;
  toOpenAI(): OpenAITool[];
  toAnthropic(): AnthropicTool[];
  /** Stops every server and process the toolkit started; idempotent. */
  close(): Promise<void>;
}

/** Where core itself is installed: plugins resolve from here when the application's folder lacks them. */
const CORE_DIR = fileURLToPath(new URL(".", import.meta.url));

export interface ToolkitInternals {
  /** Rewrites an error of one plugin, e.g. to point at the config line that enabled it. */
  locate?(spec: PluginSpec, error: unknown): Error;
  /** Assume the keys' `toolkitDefault`s (`builtins: true`); a project file lists what it wants. */
  defaults?: boolean;
  /** The options the caller reads itself (a project file's `model`...), for an unknown key's error. */
  ownOptions?: readonly string[];
}

/**
 * Gathers one tool list from every source the options name: each config key (`mcp`, `skills`,
 * `builtins`, `agents`, a listed plugin's own) goes to the plugin that declares it, loaded by name at
 * run time. A name two sources offer goes to the better-ranked one (MCP → skills → built-ins → agents →
 * plugins listed only in `plugins` → the host's tools, whatever order they set up in), with a warning
 * for each dropped duplicate; then `disableTools`.
 */
export async function createToolkit(options: ToolkitOptions = {}, internals: ToolkitInternals = {}): Promise<Toolkit> {
  const logger = options.logger ?? stderrLogger;
  const baseDir = options.baseDir ?? process.cwd();
  const load = new AbortController();
  const kernel = createKernel({ logger, baseDir, signal: load.signal, waitFor: options.waitFor });
  if (options.feedback) kernel.hooks.feedback.tap(options.feedback);
  const stopLoad = () => load.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", stopLoad, { once: true });
  // Looks up services (the MCP host) for status and deadline errors; disposed with the kernel.
  const services = kernel.scope("toolkit");
  const mcp = () => (services.has("mcp") ? services.need("mcp") : undefined);
  const deadline = options.deadline;
  const timer = deadline === undefined ? undefined : setTimeout(() => load.abort(deadlineError(deadline, kernel, mcp())), deadline);
  try {
    const stopped = new Promise<never>((_, reject) => {
      const fail = () => reject(toLoadError(load.signal.reason, kernel));
      if (load.signal.aborted) fail();
      else load.signal.addEventListener("abort", fail, { once: true });
    });
    stopped.catch(() => {});
    await Promise.race([assemble(kernel, options, baseDir, load.signal, internals), stopped]);
  } catch (error) {
    load.abort();
    await kernel.close();
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", stopLoad);
  }
  const prompt = await kernel.buildPrompt();
  return {
    kernel,
    prompt,
    waitFor: options.waitFor,
    get tools() {
      return kernel.tools.list();
    },
    execute: (call, executeOptions) => {
      const waitFor = options.waitFor;
      if (!waitFor || executeOptions?.answer) return kernel.execute(call, executeOptions);
      const signal = executeOptions?.signal ?? new AbortController().signal;
      return executeWithAnswers((resumed, more) => kernel.execute(resumed, { ...executeOptions, ...more }), { ...call, id: call.id ?? crypto.randomUUID() }, signal, waitFor);
    },
    mcpStatus: () => mcp()?.status() ?? [],
    mcp,
    toOpenAI: () => toOpenAITools(kernel.tools.list()),
    toAnthropic: () => toAnthropicTools(kernel.tools.list()),
    close: () => kernel.close(),
  };
}

async function assemble(kernel: Kernel, options: ToolkitOptions, baseDir: string, signal: AbortSignal, internals: ToolkitInternals): Promise<void> {
  const keys = configKeys(options);
  const listed = options.plugins ?? [];
  const dirs = [baseDir, CORE_DIR];
  const defaults = internals.defaults === false ? {} : toolkitDefaults();
  const installed = assertPluginsInstalled([...listed, ...firstPartyPluginsOf({ ...defaults, ...keys }).map((name) => ({ name }))], dirs);
  publishHostServices(kernel, options.services);
  const extraTools = options.extraTools ?? [];
  const planned = await planPlugins(keys, defaults, listed, {
    load: (name) => {
      const from = installed.get(name);
      return from ? importPluginFrom(name, from) : importFrom(name, dirs);
    },
    own: [coreBuiltins],
    context: { baseDir, hostTools: extraTools.map((tool) => tool.name) },
    locate: (spec, error) => (internals.locate ? internals.locate(spec, error) : toError(error)),
    ownOptions: internals.ownOptions ?? [...CORE_OPTION_NAMES],
  });
  for (const { plugin, from, options: pluginOptions, spec } of planned) {
    if (signal.aborted) return;
    try {
      await kernel.use(plugin, pluginOptions, from);
    } catch (error) {
      throw internals.locate ? internals.locate(spec, error) : error;
    }
  }
  if (extraTools.length > 0) {
    // Tapped last, so the host's tools register after every source's.
    kernel.scope("app").hooks.tools.tap((tools) => {
      for (const tool of extraTools) tools.add(withAppSource(tool));
    });
  }
  await kernel.ready();
  const ranks = new Map(planned.map((entry) => [entry.plugin.meta.name, entry.rank]));
  dropDuplicateTools(kernel.tools, kernel.logger, (owner) => ranks.get(owner) ?? Number.MAX_SAFE_INTEGER);
  if (options.disableTools?.length) kernel.tools.disable(options.disableTools);
}

/** The values `createToolkit` assumes for keys it is not given (`builtins: true`). */
function toolkitDefaults(): Record<string, unknown> {
  return Object.fromEntries(Object.entries(CONFIG_KEY_PLUGINS).flatMap(([key, known]) => (known?.toolkitDefault === undefined ? [] : [[key, known.toolkitDefault]])));
}

/** The options' config keys: every name the toolkit does not read itself. */
function configKeys(options: ToolkitOptions): Record<string, unknown> {
  const keys: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) if (!CORE_OPTION_NAMES.has(key) && value !== undefined) keys[key] = value;
  return keys;
}

/** The host's services, published before any plugin loads and kept for the kernel's lifetime. */
function publishHostServices(kernel: Kernel, services: Record<string, unknown> = {}): void {
  const host = kernel.scope("host");
  for (const [name, service] of Object.entries(services)) {
    if (service !== undefined) host.provide(name as keyof WeftServices, service as never);
  }
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function withAppSource(tool: AnyTool): AnyTool {
  return tool.source ? tool : { ...tool, source: { kind: "app", id: "app" } };
}

/** Resolves a plugin from the first folder that has it; the error of the first folder otherwise. */
async function importFrom(name: string, dirs: string[]) {
  let firstError: unknown;
  for (const dir of dirs) {
    try {
      return await importPlugin(name, dir);
    } catch (error) {
      if (!isWeftError(error) || error.code !== "PLUGIN_NOT_FOUND") throw error;
      firstError ??= error;
    }
  }
  throw firstError;
}

function deadlineError(deadline: number, kernel: Kernel, mcp: McpHost | undefined): WeftError {
  // The MCP servers still starting, by name: what the user has to look at.
  const starting = mcp?.status().filter((status) => status.state === "starting").map((status) => status.name) ?? [];
  const loading = kernel.loading().map((plugin) => (mcp && plugin === SERVICE_PROVIDERS.mcp ? `${plugin} (servers ${starting.join(", ") || "(none)"})` : plugin));
  const what = loading.length > 0 ? `still loading: ${loading.join(", ")}` : "still loading plugins";
  return new WeftError("DEADLINE_EXCEEDED", `the toolkit did not load within its deadline of ${deadline} ms (${what}); everything started was stopped`);
}

function toLoadError(reason: unknown, kernel: Kernel): Error {
  if (isWeftError(reason)) return reason;
  return new WeftError("ABORTED", `the toolkit load was aborted${kernel.loading().length ? ` while loading ${kernel.loading().join(", ")}` : ""}`, { cause: reason });
}
