import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Unit tests run against src/ without a build: every @weft package resolves to its source.
const root = fileURLToPath(new URL(".", import.meta.url));
const plugins = readdirSync(`${root}plugins`).map((name) => ({
  find: new RegExp(`^@weft/plugin-${name}$`),
  replacement: `${root}plugins/${name}/src/index.ts`,
}));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@weft\/sdk\/testing$/, replacement: `${root}sdk/src/testing/index.ts` },
      { find: /^@weft\/sdk\/provider$/, replacement: `${root}sdk/src/provider/index.ts` },
      { find: /^@weft\/sdk$/, replacement: `${root}sdk/src/index.ts` },
      { find: /^@weft\/core$/, replacement: `${root}core/src/index.ts` },
      ...plugins,
    ],
  },
  test: {
    include: ["{sdk,core,cli,plugins/*,examples/*,integration}/src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
