import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import workspace from "../../vitest.config.js";

// The AI SDK needs Node 22: these tests run on scripts/node22's binary (scripts/ci-ai-sdk.sh), never in
// the workspace's Node 20 run, which excludes this folder.

export default defineConfig({
  // The workspace's aliases and build-time constants: every @weft package resolves to its source, as in the main run.
  define: workspace.define,
  resolve: workspace.resolve,
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
