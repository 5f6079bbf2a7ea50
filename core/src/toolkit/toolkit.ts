import { fileURLToPath } from "node:url";
import { WeftError, isWeftError, stderrLogger } from "@weft/sdk";
import type { ExecuteOptions, Kernel, McpHost, McpServerStatus, ToolDescriptor, AnyTool, ToolCallRequest, ToolResult, WaitFor } from "@weft/sdk";
import { importPlugin } from "../config/plugin-resolver.js";
import { createKernel } from "../kernel.js";
import { dropDuplicateTools } from "./duplicate-tools.js";
import { assertPluginsInstalled } from "./missing-plugins.js";
import { toAnthropicTools, toOpenAITools, type AnthropicTool, type OpenAITool } from "./tool-schemas.js";
import { toolSourcePlugins } from "./tool-sources.js";
import type { PluginSpec, ToolkitOptions } from "./toolkit-options.js";

/** One tool list from every source, with the one execute path. */
export interface Toolkit {
  /** The kernel underneath: give it (or the toolkit) to `createAgent`. */
  readonly kernel: Kernel;
  /** Sorted by name; live (an MCP server's list change shows here). */
  readonly tools: ToolDescriptor[];
  /** The system-prompt text the sources contribute (the skills catalog). */
  readonly prompt: string;
  readonly waitFor?: WaitFor;
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
}

/**
 * Gathers one tool list from every source the options name, in the fixed order MCP → skills →
 * built-ins → agents → the host's tools, first name wins (a warning for each dropped duplicate), then
 * `disableTools`. Each source is a plugin loaded by name at run time.
 */
export async function createToolkit(options: ToolkitOptions = {}, internals: ToolkitInternals = {}): Promise<Toolkit> {
  const logger = options.logger ?? stderrLogger;
  const baseDir = options.baseDir ?? process.cwd();
  const kernel = createKernel({ logger, baseDir });
  if (options.feedback) kernel.hooks.feedback.tap(options.feedback);
  const load = new AbortController();
  const stopLoad = () => load.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", stopLoad, { once: true });
  // Looks up services (the MCP host) for status and deadline errors; disposed with the kernel.
  const services = kernel.scope("toolkit");
  const mcp = () => (services.has("mcp") ? services.need("mcp") : undefined);
  const timer = options.deadline === undefined ? undefined : setTimeout(() => load.abort(deadlineError(options.deadline!, kernel, mcp())), options.deadline);
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
    execute: (call, executeOptions) => kernel.execute(call, executeOptions),
    mcpStatus: () => mcp()?.status() ?? [],
    mcp,
    toOpenAI: () => toOpenAITools(kernel.tools.list()),
    toAnthropic: () => toAnthropicTools(kernel.tools.list()),
    close: () => kernel.close(),
  };
}

async function assemble(kernel: Kernel, options: ToolkitOptions, baseDir: string, signal: AbortSignal, internals: ToolkitInternals): Promise<void> {
  const specs = [...toolSourcePlugins(options, baseDir, signal), ...(options.plugins ?? [])];
  assertPluginsInstalled(specs, [baseDir, CORE_DIR]);
  for (const spec of specs) {
    if (signal.aborted) return;
    try {
      const { plugin, from } = spec.plugin ? { plugin: spec.plugin, from: undefined } : await importFrom(spec.name!, [baseDir, CORE_DIR]);
      await kernel.use(plugin, spec.options, from);
    } catch (error) {
      throw internals.locate ? internals.locate(spec, error) : error;
    }
  }
  const extraTools = options.extraTools ?? [];
  if (extraTools.length > 0) {
    // Tapped last, so the host's tools register after every source's.
    kernel.scope("app").hooks.tools.tap((tools) => {
      for (const tool of extraTools) tools.add(withAppSource(tool));
    });
  }
  await kernel.ready();
  dropDuplicateTools(kernel.tools, kernel.logger);
  if (options.disableTools?.length) kernel.tools.disable(options.disableTools);
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
  const loading = kernel.loading().map((plugin) => (plugin === "@weft/plugin-mcp" ? `${plugin} (servers ${starting.join(", ") || "(none)"})` : plugin));
  const what = loading.length > 0 ? `still loading: ${loading.join(", ")}` : "still loading plugins";
  return new WeftError("DEADLINE_EXCEEDED", `the toolkit did not load within its deadline of ${deadline} ms (${what}); everything started was stopped`);
}

function toLoadError(reason: unknown, kernel: Kernel): Error {
  if (isWeftError(reason)) return reason;
  return new WeftError("ABORTED", `the toolkit load was aborted${kernel.loading().length ? ` while loading ${kernel.loading().join(", ")}` : ""}`, { cause: reason });
}
