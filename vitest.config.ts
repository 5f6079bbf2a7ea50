import { readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Unit tests run against src/ without a build: every @weft package resolves to its source.
const root = fileURLToPath(new URL(".", import.meta.url));
const plugins = readdirSync(`${root}plugins`).map((name) => ({
  find: new RegExp(`^@weft/plugin-${name}$`),
  replacement: `${root}plugins/${name}/src/index.ts`,
}));

export default defineConfig({
  // What the sdk's build defines for the yaml and typebox it copies in (scripts/bundle-dist.mjs).
  define: {
    __WEFT_INLINED_VERSION_YAML__: JSON.stringify(JSON.parse(readFileSync(`${root}node_modules/yaml/package.json`, "utf8")).version),
    __WEFT_INLINED_VERSION_TYPEBOX__: JSON.stringify(JSON.parse(readFileSync(`${root}node_modules/typebox/package.json`, "utf8")).version),
  },
  resolve: {
    alias: [
      { find: /^@weft\/sdk\/testing$/, replacement: `${root}sdk/src/testing/index.ts` },
      { find: /^@weft\/sdk\/typebox$/, replacement: `${root}sdk/src/typebox.ts` },
      { find: /^@weft\/sdk\/yaml$/, replacement: `${root}sdk/src/yaml.ts` },
      { find: /^@weft\/sdk\/provider$/, replacement: `${root}sdk/src/provider/index.ts` },
      { find: /^@weft\/sdk$/, replacement: `${root}sdk/src/index.ts` },
      { find: /^@weft\/core\/project$/, replacement: `${root}core/src/project.ts` },
      { find: /^@weft\/core$/, replacement: `${root}core/src/index.ts` },
      { find: /^@weft\/testing$/, replacement: `${root}testing/src/index.ts` },
      { find: /^@weft\/(otel|mcp-server)$/, replacement: `${root}plugins/$1/src/index.ts` },
      { find: /^@weft\/sessions$/, replacement: `${root}sessions/src/index.ts` },
      { find: /^@weft\/sessions\/(sqlite|postgres)$/, replacement: `${root}sessions/src/$1.ts` },
      { find: /^@weft\/restate$/, replacement: `${root}restate/src/index.ts` },
      ...plugins,
    ],
  },
  test: {
    include: ["{sdk,core,testing,cli,plugins/*,examples/*,integration,sessions}/src/**/*.test.ts", "scripts/*.test.ts"],
    // Needs Node 22 (the AI SDK): scripts/ci-ai-sdk.sh runs it on the node@22 binary.
    exclude: ["plugins/ai-sdk/**", "**/node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The repo's tests load its example configs; the trust tests unset this and use a temporary store.
    // Config parses are cached outside the user's home (the cache's own tests use their own folders).
    env: { WEFT_TRUST_ALL: "1", WEFT_CACHE_DIR: `${tmpdir()}/weft-test-cache` },
  },
});
