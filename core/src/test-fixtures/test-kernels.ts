import { memoryLogger, type Kernel } from "@weft/sdk";
import { closeAfterEach } from "@weft/sdk/testing";
import { createKernel, type KernelOptions } from "../kernel.js";

/**
 * Bare kernels (a memory logger unless the options name one) closed after each test, passed or failed.
 * Core's tests cannot use `testKernels` of @weft/testing: that package depends on core.
 */
export function testKernels(afterEach: Parameters<typeof closeAfterEach>[0]): (options?: KernelOptions) => Kernel {
  const closing = closeAfterEach(afterEach);
  return (options = {}) => closing(createKernel({ logger: memoryLogger(), ...options }));
}
