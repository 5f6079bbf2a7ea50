export { scriptedModel, type ScriptedModel, type ScriptedModelOptions, type ScriptedTurn } from "./scripted-model.js";
export { createTestKernel, type PluginEntry } from "./test-kernel.js";
export { isProcessAlive, waitForProcessExit } from "./process-gone.js";
