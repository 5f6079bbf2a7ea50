import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The AI SDK needs Node 22: these tests run on scripts/node22's binary (scripts/ci-ai-sdk.sh), never in
// the workspace's Node 20 run, which excludes this folder.
const root = fileURLToPath(new URL("../..", import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@weft\/sdk\/testing$/, replacement: `${root}sdk/src/testing/index.ts` },
      { find: /^@weft\/sdk\/provider$/, replacement: `${root}sdk/src/provider/index.ts` },
      { find: /^@weft\/sdk$/, replacement: `${root}sdk/src/index.ts` },
      { find: /^@weft\/core$/, replacement: `${root}core/src/index.ts` },
    ],
  },
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
