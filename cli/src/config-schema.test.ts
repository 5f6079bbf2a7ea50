import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { weft } from "./test-fixtures/weft-process.js";

// The oracle is ajv, a JSON Schema validator of its own: the schema the built CLI prints must accept
// the configs weft ships and refuse what weft refuses.
const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));

async function schemaIn(dir: string, args: string[] = []) {
  const printed = await weft(dir, ["config", "schema", ...args]);
  expect(printed.stderr).toBe("");
  expect(printed.code).toBe(0);
  return new Ajv2020({ allErrors: true }).compile(JSON.parse(printed.stdout) as Record<string, unknown>);
}

describe("weft config schema", () => {
  let project: string;
  beforeAll(async () => {
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-schema-")));
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  it("accepts the example configs, with the third-party pack they list", async () => {
    for (const example of ["quickstart", "mcp-serve"]) {
      const dir = path.join(EXAMPLES, example);
      const validate = await schemaIn(dir);
      expect(validate(parse(await readFile(path.join(dir, "weft.config.yaml"), "utf8"))), `${example}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    // quickstart lists `dice`: its options are described; one it does not have is refused.
    const validate = await schemaIn(path.join(EXAMPLES, "quickstart"));
    expect(validate({ plugins: [{ dice: { sides: 6 } }] })).toBe(false);
  });

  it("is what weft init points editors at, and accepts the starter config", async () => {
    expect((await weft(project, ["init"])).code).toBe(0);
    const config = await readFile(path.join(project, "weft.config.yaml"), "utf8");
    expect(config.split("\n")[0]).toBe("# yaml-language-server: $schema=./weft.config.schema.json");
    const written = JSON.parse(await readFile(path.join(project, "weft.config.schema.json"), "utf8")) as Record<string, unknown>;
    const validate = new Ajv2020({ allErrors: true }).compile(written);
    expect(validate(parse(config)), JSON.stringify(validate.errors)).toBe(true);
    // init's commented examples, uncommented, are valid too.
    expect(validate({ ...parse(config), plugins: [{ files: { root: "./workspace" } }], mcp: "./mcp.json", skills: ["./skills"], disableTools: ["bash"] })).toBe(true);
  });

  it("refuses a typo'd option where weft refuses it, naming it", async () => {
    const validate = await schemaIn(project);
    expect(validate({ modle: "anthropic/claude-sonnet-4-5" })).toBe(false);
    expect(validate.errors).toContainEqual(expect.objectContaining({ instancePath: "", keyword: "additionalProperties", params: { additionalProperty: "modle" } }));
    expect(validate({ plugins: [{ files: { roott: "./workspace" } }] })).toBe(false);
    expect(validate.errors).toContainEqual(expect.objectContaining({ instancePath: "/plugins/0/files", params: { additionalProperty: "roott" } }));
    expect(validate({ builtins: { disabld: ["bash"] } })).toBe(false);
    expect(validate({ effort: "extreme" })).toBe(false);
    expect(validate({ sessions: { store: "sqlite" } })).toBe(false);
    expect(validate({ agents: [{ name: "helper", description: "Helps", local: { instructions: "Help." } }, { card: "http://127.0.0.1:1/card" }] })).toBe(true);
    // weft itself refuses the same two typos when it loads the project.
    for (const typo of ["modle: anthropic/claude-sonnet-4-5\n", "plugins:\n  - files: { roott: ./workspace }\n"]) {
      const dir = await mkdtemp(path.join(project, "typo-"));
      await writeFile(path.join(dir, "weft.config.yaml"), typo);
      const loaded = await weft(dir, ["tools"]);
      expect(loaded.code).toBe(1);
      expect(loaded.stderr).toMatch(/modle|roott/);
    }
  });
});
