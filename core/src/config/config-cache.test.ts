import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { YAML_VERSION } from "@weft/sdk";
import { ConfigDocument } from "./config-document.js";
import { parseConfigDocument } from "./config-yaml.js";

// The cache of parsed config text (config-cache.ts): used for the exact text it was made from, and only then.
const CONFIG = `model: anthropic/claude-sonnet-4-5
plugins:
  - files: { root: ./workspace }
  - shell
mcp:
  servers:
    fs: { command: npx, args: [-y, server-filesystem, "\${ROOT:-/srv}"] }
`;

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(text: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "weft-config-cache-"));
  made.push(dir);
  const file = path.join(dir, "weft.config.yaml");
  writeFileSync(file, text);
  const env = { WEFT_CACHE_DIR: path.join(dir, "cache") };
  const entries = () => readdirSync(path.join(dir, "cache", "config")).map((name) => path.join(dir, "cache", "config", name));
  return { dir, file, env, entries };
}

/** What a document tells its readers: the value, the secrets, lines and located errors. */
function observed(doc: ConfigDocument) {
  const paths = [[], ["model"], ["plugins", 0, "files", "root"], ["plugins", 1], ["plugins", 1, "shell", "missing"], ["mcp", "servers", "fs", "args", 2], ["nowhere"]];
  return {
    value: doc.value(),
    expanded: [...doc.expandedValues],
    lines: paths.map((at) => doc.lineOf(at)),
    errors: paths.flatMap((at) => [doc.error(at, "bad").message, doc.error(at, "bad key", { atKey: true }).message]),
  };
}

describe("the config parse cache", () => {
  it("reads a config read before from its entry, telling exactly what a parse of the text tells", async () => {
    const { file, env, entries } = project(CONFIG);
    const first = await ConfigDocument.read(file, { ...env, ROOT: "/data" });
    const [entry] = entries();
    expect(entries()).toHaveLength(1);
    expect(JSON.parse(readFileSync(entry as string, "utf8"))).toMatchObject({ file, text: CONFIG });
    const again = await ConfigDocument.read(file, { ...env, ROOT: "/data" });
    const parsed = parseConfigDocument(file, CONFIG, { ROOT: "/data" });
    expect(observed(again)).toEqual(observed(parsed));
    expect(observed(first)).toEqual(observed(parsed));
    expect(observed(parsed).errors.slice(4, 6)).toEqual([`${file}:3:20 (option plugins[0].files.root): bad`, `${file}:3:14 (option plugins[0].files.root): bad key`]);
    // The second read came from the entry: an entry edited by hand (same text) shows through.
    const edited = JSON.parse(readFileSync(entry as string, "utf8"));
    writeFileSync(entry as string, JSON.stringify({ ...edited, value: { model: "from/entry" } }));
    expect((await ConfigDocument.read(file, env)).value()).toEqual({ model: "from/entry" });
  });

  it("never answers for a text other than the one it was made from: an edit is parsed fresh", async () => {
    const { file, env, entries } = project(CONFIG);
    await ConfigDocument.read(file, env);
    const [entry] = entries();
    const edited = JSON.parse(readFileSync(entry as string, "utf8"));
    writeFileSync(entry as string, JSON.stringify({ ...edited, value: { model: "stale/entry" } }));
    // One character changed (a model id), the same length: the entry is not used, and is replaced.
    writeFileSync(file, CONFIG.replace("claude-sonnet-4-5", "claude-sonnet-4-6"));
    expect((await ConfigDocument.read(file, env)).value()).toMatchObject({ model: "anthropic/claude-sonnet-4-6" });
    expect(JSON.parse(readFileSync(entry as string, "utf8"))).toMatchObject({ value: { model: "anthropic/claude-sonnet-4-6" } });
  });

  it("never answers with an entry another parser made: a later yaml parses the text again", async () => {
    const { file, env, entries } = project(CONFIG);
    await ConfigDocument.read(file, env);
    const [entry] = entries();
    const made = JSON.parse(readFileSync(entry as string, "utf8"));
    expect(made.parser).toBe(`1 yaml ${YAML_VERSION}`);
    // The same text, parsed by an older yaml (its answer differs): not used, and replaced.
    writeFileSync(entry as string, JSON.stringify({ ...made, parser: "1 yaml 2.0.0", value: { model: "older/yaml" } }));
    expect((await ConfigDocument.read(file, env)).value()).toMatchObject({ model: "anthropic/claude-sonnet-4-5" });
    expect(JSON.parse(readFileSync(entry as string, "utf8"))).toMatchObject({ parser: made.parser, value: { model: "anthropic/claude-sonnet-4-5" } });
  });

  it("expands ${VAR} after the cache: a changed environment is read, an unset variable names its line", async () => {
    const text = "model: anthropic/x\nagents:\n  - card: https://a.example\n    headers:\n      Authorization: Bearer ${TOKEN}\n";
    const { file, env } = project(text);
    const header = async (extra: Record<string, string>) => {
      const value = (await ConfigDocument.read(file, { ...env, ...extra })).value() as { agents: { headers: Record<string, string> }[] };
      return value.agents[0]?.headers.Authorization;
    };
    expect(await header({ TOKEN: "one" })).toBe("Bearer one");
    expect(await header({ TOKEN: "two" })).toBe("Bearer two");
    await expect(ConfigDocument.read(file, env)).rejects.toThrow(
      `${file}:5:22: environment variable TOKEN is not set (set it, or write \${TOKEN:-default} for a fallback)`,
    );
  });

  it("expands a key from the cache as a parse does, its error at the key", async () => {
    const text = "plugins:\n  - ./pack.js\nheaders:\n  ${NAME}: x\n";
    const { file, env } = project(text);
    await ConfigDocument.read(file, { ...env, NAME: "X-Team" });
    const cached = await ConfigDocument.read(file, { ...env, NAME: "X-Team" });
    expect(cached.value()).toEqual({ plugins: ["./pack.js"], headers: { "X-Team": "x" } });
    expect(cached.lineOf(["headers", "X-Team"])).toBe(4);
    await expect(ConfigDocument.read(file, env)).rejects.toThrow(`${file}:4:3: environment variable NAME is not set`);
    expect(() => parseConfigDocument(file, text, {})).toThrow(`${file}:4:3: environment variable NAME is not set`);
  });

  it("keeps no entry for a value JSON would change (.inf), and reads it right each time", async () => {
    const { file, env, dir } = project("limits: { tokens: .inf, floor: -.inf }\n");
    for (let read = 0; read < 2; read++) {
      expect((await ConfigDocument.read(file, env)).value()).toEqual({ limits: { tokens: Number.POSITIVE_INFINITY, floor: Number.NEGATIVE_INFINITY } });
    }
    expect(readdirSync(dir)).not.toContain("cache");
  });

  it("reads configs where no cache can be written, and past an entry cut short", async () => {
    const { file, dir, env, entries } = project(CONFIG);
    const blocked = path.join(dir, "not-a-folder");
    writeFileSync(blocked, "");
    expect((await ConfigDocument.read(file, { WEFT_CACHE_DIR: blocked })).value()).toMatchObject({ plugins: [{ files: { root: "./workspace" } }, "shell"] });
    await ConfigDocument.read(file, env);
    const [entry] = entries();
    writeFileSync(entry as string, readFileSync(entry as string, "utf8").slice(0, 40));
    expect((await ConfigDocument.read(file, env)).value()).toMatchObject({ model: "anthropic/claude-sonnet-4-5" });
    expect(JSON.parse(readFileSync(entry as string, "utf8"))).toMatchObject({ text: CONFIG });
  });
});
