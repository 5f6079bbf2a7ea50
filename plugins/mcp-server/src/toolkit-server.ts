import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
  type CallToolResult,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import { executeWithAnswers } from "@weft/sdk";
import type { ExecuteOptions, PendingAnswer, Suspension, ToolCallRequest, ToolResult, ToolSpec, ToolAnnotations, WaitFor } from "@weft/sdk";
import { catalogSkills } from "./skill-prompts.js";

/** What the server needs of a toolkit: its live tool list, its prompt, the one execute path. */
export interface ServedToolkit {
  readonly tools: readonly (ToolSpec & { annotations?: ToolAnnotations })[];
  readonly prompt: string;
  execute(call: ToolCallRequest, options?: ExecuteOptions): Promise<ToolResult>;
}

export interface ToolkitServerOptions {
  name?: string;
  version?: string;
}

/**
 * One MCP server over a weft toolkit: every tool (MCP, skills, packs, A2A, own) under its weft name,
 * each call through the toolkit's execute path (gate, validation, time limit, feedback); the skills
 * catalog as the server's instructions and each skill as a prompt; a tool that suspends asks the
 * client through elicitation when it supports it. `toolsChanged()` tells the client to list again.
 */
export function createToolkitServer(toolkit: ServedToolkit, options: ToolkitServerOptions = {}): Server & { toolsChanged(): void } {
  const server = new Server(
    { name: options.name ?? "weft", version: options.version ?? "0.1.0" },
    {
      capabilities: { tools: { listChanged: true }, prompts: {} },
      ...(toolkit.prompt ? { instructions: toolkit.prompt } : {}),
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: toolkit.tools.map(
      (tool): McpTool => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema as McpTool["inputSchema"],
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
      }),
    ),
  }));

  let calls = 0;
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const call = { id: `mcp_${++calls}`, name: request.params.name, arguments: request.params.arguments ?? {} };
    const waitFor = server.getClientCapabilities()?.elicitation ? elicitation(server) : undefined;
    const result = await executeWithAnswers((next, executeOptions) => toolkit.execute(next, executeOptions), call, extra.signal, waitFor);
    return { content: [{ type: "text", text: result.output }], ...(result.isError ? { isError: true } : {}) };
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: catalogSkills(toolkit.prompt).map((skill) => ({ name: skill.name, description: skill.description })),
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const skill = catalogSkills(toolkit.prompt).find((candidate) => candidate.name === request.params.name);
    if (!skill) throw new McpError(ErrorCode.InvalidParams, `unknown prompt: ${request.params.name}`);
    const loaded = await toolkit.execute({ name: "skill_load", arguments: { skill_name: skill.name } }, { signal: extra.signal });
    if (loaded.isError) throw new McpError(ErrorCode.InternalError, loaded.output);
    return { description: skill.description, messages: [{ role: "user", content: { type: "text", text: loaded.output } }] };
  });

  return Object.assign(server, {
    toolsChanged: () => void server.sendToolListChanged().catch(() => undefined),
  });
}

/** Forwards a suspension to the client as an elicitation: a form of the request's schema, or one answer field. */
function elicitation(server: Server): WaitFor {
  return async (suspension: Suspension, signal): Promise<PendingAnswer> => {
    const asksText = suspension.kind === "question" || suspension.kind === "input";
    const requestedSchema = (suspension.schema ??
      (asksText ? { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] } : { type: "object", properties: {} })) as {
      type: "object";
      properties: Record<string, never>;
    };
    const result = await server.elicitInput({ message: suspension.message, requestedSchema }, { signal });
    const content = asksText && !suspension.schema ? result.content?.answer : result.content;
    return content === undefined ? { action: result.action } : { action: result.action, content };
  };
}
