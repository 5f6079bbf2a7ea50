// Built on the root entry: importing it keeps the modules the two share inside dist/index.js, not in a
// chunk every start would load after it (scripts/bundle-dist.mjs).
import "../index.js";
export { scriptedModel, type ScriptedModel, type ScriptedModelOptions, type ScriptedTurn } from "./scripted-model.js";
export { isProcessAlive, waitForProcessExit } from "./process-gone.js";
export { startScriptedServer, useScriptedServer, type RecordedRequest, type ScriptedReply, type ScriptedResponse, type ScriptedServer } from "./scripted-server.js";
export {
  runProviderConformance,
  type ConformanceSettings,
  type ConformanceTestApi,
  type ConformanceWire,
  type ProviderConformanceOptions,
} from "./provider-conformance.js";
export { recordingMcpHost, installStandIn, standInOnPath, type StandIn, type StandInOnPath } from "./mcp-stand-in.js";
export { doneMessage, drain, rejectionOf } from "./drain.js";
export { defined } from "./defined.js";
export { closeAfterEach, type Closable } from "./close-after-each.js";
export { runSessionStoreConformance, sampleSnapshot, type SessionStoreHarness, type SessionStoreTestApi } from "./session-store-conformance.js";
export { freePort } from "./free-port.js";
