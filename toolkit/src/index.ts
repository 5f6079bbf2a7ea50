// The whole toolkit in one install: the kernel, toolkit and agent of @weft/core and the contract of
// @weft/sdk from one import. Every first-party plugin is a dependency, so createToolkit finds the
// built-in packs and createModel the providers; @weft/cli brings the `weft` command.
export * from "@weft/core";
export * from "@weft/sdk";
// Both define a SessionStore today (core's is the agent's, the sdk's the durable stores' contract); the
// agent's is the one an application passes to createAgent.
export type { SessionStore } from "@weft/core";
