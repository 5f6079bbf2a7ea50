// The kernel builder needs @weft/core, so it lives here; the rest of the kit is the sdk's and needs no core.
export { createTestKernel, type PluginEntry } from "./test-kernel.js";
export { testKernels } from "./test-kernels.js";
export * from "@weft/sdk/testing";
