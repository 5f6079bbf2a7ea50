import { mcpPlugin } from "./plugin.js";

export default mcpPlugin;
export { mcpPlugin };
export { Manager, mcpManager, DEFAULT_ELICITATION_TIMEOUT_MS, type ManagerOptions, type StartOptions } from "./manager.js";
export {
  loadMcpConfig,
  parseMcpConfig,
  parseServerEntry,
  resolveTransport,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  DEFAULT_CALL_TIMEOUT_MS,
  type McpServerSpec,
  type ParseOptions,
  type RemoteEndpoint,
  type ServerTransport,
  type StdioLaunch,
  type ToolFilter,
} from "./config.js";
export { childEnvironment, INHERITED_VARIABLES } from "./child-env.js";
export { flattenBlock, toToolResult, type CallResult, type ContentBlock } from "./flatten-result.js";
export type { ElicitationTicket } from "./elicitation-bridge.js";
export { fileTokenStore, defaultTokenFile, type McpTokenStore, type PendingSignIn, type StoredAuthorization } from "./token-store.js";
export type { McpAuthSpec, OAuthGrant } from "./auth-config.js";
