import type { Kernel } from "@weft/sdk";
import { closeAfterEach } from "@weft/sdk/testing";
import { createTestKernel } from "./test-kernel.js";

/**
 * `createTestKernel` whose kernels are closed after each test, passed or failed, so a failing
 * assertion leaves no plugin's servers or processes running. Pass the runner's `afterEach`:
 *
 *   const open = testKernels(afterEach);
 *   it("...", async () => {
 *     const kernel = await open([[myPack, { root: dir }]]);
 *   });
 */
export function testKernels(afterEach: Parameters<typeof closeAfterEach>[0]): (...args: Parameters<typeof createTestKernel>) => Promise<Kernel> {
  const closing = closeAfterEach(afterEach);
  return async (...args) => closing(await createTestKernel(...args));
}
