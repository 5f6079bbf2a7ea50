/** Anything a test opens and must close: a kernel, a client, a server, a store. */
export interface Closable {
  close(): unknown;
}

/**
 * Registers one `afterEach` that closes everything handed to the returned function during the test,
 * passed or failed, so a failing assertion never leaves a kernel's processes or servers running into
 * the next test. `afterEach` is the runner's (vitest's, node:test's), as with the conformance suites,
 * so the sdk needs no test runner:
 *
 *   const closing = closeAfterEach(afterEach);
 *   const kernel = closing(createKernel());
 */
export function closeAfterEach(afterEach: (fn: () => Promise<void>) => void): <T extends Closable>(item: T) => T {
  const open: Closable[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map(async (item) => item.close()));
  });
  return (item) => {
    open.push(item);
    return item;
  };
}
