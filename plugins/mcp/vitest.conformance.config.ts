import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The official MCP conformance harness against weft's client: scripts/ci-mcp-conformance.sh runs this
// with the harness on Node 22; it is not part of the workspace's main run (not a *.test.ts file).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["src/conformance/*.conformance.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Each scenario is two processes (the harness and the driver): four at a time on a 2-core machine.
    maxConcurrency: 4,
    pool: "forks",
  },
});
