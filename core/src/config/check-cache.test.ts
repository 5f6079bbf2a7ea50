import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The option checks a start passed, kept for the next one (check-cache.ts, passed-checks.ts). Each
// "start" imports core afresh (vi.resetModules), so only what the cache kept carries over.
const PLUGIN = `export default {
  meta: { name: "levels", version: "1.0.0", api: 1 },
  options: { type: "object", properties: { level: { type: "integer", maximum: 5 } } },
  setup() {},
};
`;

let dir: string;
let cache: string;
const cacheBefore = process.env.WEFT_CACHE_DIR;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "weft-check-cache-"));
  cache = path.join(dir, "cache");
  process.env.WEFT_CACHE_DIR = cache;
  writeFileSync(path.join(dir, "levels.js"), PLUGIN);
});
afterEach(() => {
  process.env.WEFT_CACHE_DIR = cacheBefore;
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh start of core on `config`: how many option checks typebox ran, and the load's error, if any. */
async function start(config: string): Promise<{ checks: number; error?: string }> {
  writeFileSync(path.join(dir, "weft.config.yaml"), config);
  vi.resetModules();
  const { Value } = await import("@weft/sdk/typebox-lite");
  const check = vi.spyOn(Value, "Check");
  const { loadProject } = await import("./load-project.js");
  try {
    const project = await loadProject({ cwd: dir });
    await project.kernel.close();
    return { checks: check.mock.calls.length };
  } catch (error) {
    return { checks: check.mock.calls.length, error: (error as Error).message };
  } finally {
    check.mockRestore();
  }
}

const entryFiles = () => readdirSync(path.join(cache, "checks")).map((name) => path.join(cache, "checks", name));

describe("the cache of passed option checks", () => {
  it("runs no check a start with the same options and plugin passed, and checks an edited option again", async () => {
    expect(await start("plugins:\n  - ./levels.js: { level: 3 }\n")).toEqual({ checks: 1 });
    expect(await start("plugins:\n  - ./levels.js: { level: 3 }\n")).toEqual({ checks: 0 });
    expect(await start("plugins:\n  - ./levels.js: { level: 4 }\n")).toEqual({ checks: 1 });
    // A failing value is found and located as without the cache, each time.
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(await start("plugins:\n  - ./levels.js: { level: 9 }\n")).toEqual({
        checks: 1,
        error: `${dir}/weft.config.yaml:2:27 (option plugins[0]../levels.js.level): invalid option for levels: must be <= 5`,
      });
    }
    // The entry keeps what the last passing start used: level 4, not level 3 any more.
    expect(await start("plugins:\n  - ./levels.js: { level: 3 }\n")).toEqual({ checks: 1 });
  });

  it("checks a schema it has not seen with the same options", async () => {
    // A plugin edited between two starts is cli/src/check-cache.test.ts's (a process imports a module once).
    const { optionProblems } = await import("../plugin-options-error.js");
    const value = { level: 3 };
    expect(await optionProblems({ type: "object", properties: { level: { type: "integer", maximum: 5 } } } as never, value)).toEqual([]);
    expect(await optionProblems({ type: "object", properties: { level: { type: "integer", maximum: 2 } } } as never, value)).toEqual([
      { path: "/level", message: "must be <= 2" },
    ]);
  });

  it("never writes down a check whose value holds what a variable of the environment expanded to", async () => {
    process.env.WEFT_TEST_CHECK_SECRET = "sk-check-cache-secret-1234";
    try {
      const config = `plugins:\n  - ./keys.js: { key: "\${WEFT_TEST_CHECK_SECRET}" }\n  - ./levels.js: { level: 1 }\n`;
      writeFileSync(path.join(dir, "keys.js"), PLUGIN.replace('"levels"', '"keys"').replace('level: { type: "integer", maximum: 5 }', 'key: { type: "string" }'));
      expect(await start(config)).toEqual({ checks: 2 });
      // The levels check is kept; the one holding the secret runs at every start.
      expect(await start(config)).toEqual({ checks: 1 });
      const [entry = ""] = entryFiles();
      const text = readFileSync(entry, "utf8");
      expect(text).not.toContain("sk-check-cache-secret-1234");
      expect((JSON.parse(text) as { passed: string[] }).passed).toEqual([
        '[{"type":"object","properties":{"level":{"type":"integer","maximum":5}}},{"level":1}]',
      ]);
    } finally {
      delete process.env.WEFT_TEST_CHECK_SECRET;
    }
  });

  it("ignores a corrupt entry or one of another typebox, and starts when the cache cannot be written", async () => {
    const config = "plugins:\n  - ./levels.js: { level: 3 }\n";
    expect(await start(config)).toEqual({ checks: 1 });
    const [entry = ""] = entryFiles();
    const kept = JSON.parse(readFileSync(entry, "utf8")) as { checker: string };
    writeFileSync(entry, JSON.stringify({ ...kept, checker: "1 typebox 0.0.1" }));
    expect(await start(config)).toEqual({ checks: 1 });
    // That start wrote the entry again, for this typebox.
    expect(await start(config)).toEqual({ checks: 0 });
    writeFileSync(entry, '{"checker": "1 typebo');
    expect(await start(config)).toEqual({ checks: 1 });
    expect(await start(config)).toEqual({ checks: 0 });
    // A cache folder that is a file: nothing can be read or kept, and every start checks.
    rmSync(cache, { recursive: true });
    writeFileSync(cache, "");
    expect(await start(config)).toEqual({ checks: 1 });
    expect(await start(config)).toEqual({ checks: 1 });
  });
});

describe("checkKey", () => {
  it("is the JSON of schema and value, and undefined when a check depends on more than JSON says", async () => {
    const { checkKey } = await import("../passed-checks.js");
    const { Type } = await import("@weft/sdk/typebox-lite");
    const { Type: FullType } = await import("@weft/sdk/typebox");
    const schema = Type.Object({ level: Type.Optional(Type.Integer()) });
    expect(checkKey(schema, { level: 3 })).toBe('[{"type":"object","properties":{"level":{"type":"integer"}}},{"level":3}]');
    expect(checkKey(schema, { level: 3, nested: [{ a: null }] })).toBe(
      '[{"type":"object","properties":{"level":{"type":"integer"}}},{"level":3,"nested":[{"a":null}]}]',
    );
    const refined = FullType.Refine(FullType.Integer(), (value) => value > 0);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const value of [{ level: undefined }, [undefined], { run: () => 1 }, Number.NaN, Number.POSITIVE_INFINITY, -0, new Date(0), new Map(), { toJSON: () => 1 }, cyclic, 1n, Symbol("s")]) {
      expect(checkKey(schema, value)).toBeUndefined();
    }
    expect(checkKey(refined, 3)).toBeUndefined();
    expect(checkKey(Type.Object({ level: refined }), { level: 3 })).toBeUndefined();
  });

  it("never keeps a check it cannot name: a refinement runs every time", async () => {
    const { optionProblems } = await import("../plugin-options-error.js");
    const { Type } = await import("@weft/sdk/typebox");
    let runs = 0;
    const schema = Type.Refine(Type.Integer(), (value) => {
      runs++;
      return value > 0;
    });
    expect(await optionProblems(schema, 3)).toEqual([]);
    expect(await optionProblems(schema, 3)).toEqual([]);
    expect(runs).toBeGreaterThanOrEqual(2);
  });
});
