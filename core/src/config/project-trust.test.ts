import { access, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadProject } from "./load-project.js";
import { readProjectConfig } from "./load-project.js";
import { trustRequest } from "./project-trust.js";
import { addTrust, readTrust, revokeTrust, trustStoreFile } from "./trust-store.js";

// Importing it leaves a mark: the test can tell whether the code ran.
const EVIL = `import { writeFileSync } from "node:fs";
writeFileSync(new URL("./ran.txt", import.meta.url), "ran");
export default { meta: { name: "evil", version: "1.0.0", api: 1 }, setup() {} };
`;

describe("trust before code", () => {
  let base: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  const ran = () => access(path.join(project, "ran.txt")).then(() => true, () => false);
  const config = "plugins:\n  - ./evil.js\nmcp:\n  mcpServers:\n    tool: { command: node, args: [server.js] }\n";

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), "weft-trust-")));
    project = path.join(base, "repo");
    await mkdir(path.join(project, "deep/sub"), { recursive: true });
    await writeFile(path.join(project, "evil.js"), EVIL);
    // The trust store lives in a temporary config dir; WEFT_TRUST_ALL (set for the other tests) is off.
    env = { WEFT_CONFIG_DIR: path.join(base, "config") };
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it("refuses a config that would run code, found by walking up, before anything runs", async () => {
    await writeFile(path.join(project, "weft.config.yaml"), "plugins:\n  - ./evil.js\n");
    const file = path.join(project, "weft.config.yaml");
    await expect(loadProject({ cwd: path.join(project, "deep/sub"), trust: { env } })).rejects.toMatchObject({
      code: "PROJECT_UNTRUSTED",
      message:
        `${file} is not trusted, and loading it would run code:\n  - plugin ./evil.js (code in the project)\n` +
        `Read it, then trust it with: weft trust ${project} (or set WEFT_TRUST_ALL=1 where every config is yours, as in CI). Any change to the config withdraws the trust.`,
    });
    expect(await ran()).toBe(false);
  });

  it("names MCP commands and skill scripts among what would run", async () => {
    await mkdir(path.join(project, "skills/tool/scripts"), { recursive: true });
    await writeFile(path.join(project, "skills/tool/scripts/run.sh"), "#!/bin/sh\necho hi\n", { mode: 0o755 });
    await writeFile(path.join(project, "weft.config.yaml"), `${config}skills: [./skills]\n`);
    const file = path.join(project, "weft.config.yaml");
    expect((await trustRequest(file, await readProjectConfig(file))).reasons).toEqual([
      "plugin ./evil.js (code in the project)",
      "MCP server tool (runs node)",
      "skill scripts in ./skills",
    ]);
  });

  it("loads once trusted, and a changed config needs trust again", async () => {
    await writeFile(path.join(project, "weft.config.yaml"), "plugins:\n  - ./evil.js\n");
    const file = path.join(project, "weft.config.yaml");
    const request = await trustRequest(file, await readProjectConfig(file));
    await addTrust(request.file, request.hash, env);
    expect((await readTrust(env)).map((entry) => entry.path)).toEqual([file]);
    expect(trustStoreFile(env)).toBe(path.join(base, "config/trust.json"));
    const loaded = await loadProject({ cwd: project, trust: { env } });
    await loaded.toolkit.close();
    expect(await ran()).toBe(true);
    await rm(path.join(project, "ran.txt"));
    await writeFile(path.join(project, "weft.config.yaml"), "plugins:\n  - ./evil.js\n# changed\n");
    await expect(loadProject({ cwd: project, trust: { env } })).rejects.toMatchObject({ code: "PROJECT_UNTRUSTED" });
    expect(await ran()).toBe(false);
    expect(await revokeTrust(file, env)).toBe(true);
    expect(await readTrust(env)).toEqual([]);
  });

  it("asks once when it can, remembers a yes, and lets WEFT_TRUST_ALL=1 through", async () => {
    await writeFile(path.join(project, "weft.config.yaml"), "plugins:\n  - ./evil.js\n");
    const questions: string[] = [];
    const no = async (question: string) => {
      questions.push(question);
      return false;
    };
    await expect(loadProject({ cwd: project, trust: { env, ask: no } })).rejects.toMatchObject({ code: "PROJECT_UNTRUSTED" });
    expect(questions).toEqual([`${path.join(project, "weft.config.yaml")} would run code:\n  - plugin ./evil.js (code in the project)\nTrust this folder's config and run it? [y/N] `]);
    const first = await loadProject({ cwd: project, trust: { env, ask: async () => true } });
    await first.toolkit.close();
    const again = await loadProject({ cwd: project, trust: { env, ask: no } });
    await again.toolkit.close();
    expect(questions).toHaveLength(1);
    const ci = await loadProject({ cwd: project, trust: { env: { ...env, WEFT_CONFIG_DIR: path.join(base, "empty"), WEFT_TRUST_ALL: "1" } } });
    await ci.toolkit.close();
  });

  it("needs no trust for a config that runs no code of its own", async () => {
    await writeFile(path.join(project, "weft.config.yaml"), "disableTools: [x]\n");
    const loaded = await loadProject({ cwd: project, trust: { env: { WEFT_CONFIG_DIR: path.join(base, "none") } } });
    await loaded.toolkit.close();
  });

  it("reads only well-formed entries from a hand-edited trust store, so a stray entry trusts nothing", async () => {
    const good = { path: "/work/app/weft.config.yaml", hash: "abc", trustedAt: "2026-01-01T00:00:00.000Z" };
    await mkdir(path.dirname(trustStoreFile(env)), { recursive: true });
    await writeFile(trustStoreFile(env), JSON.stringify({ trusted: [good, { path: "/work/other/weft.config.yaml" }, "oops", null] }));
    expect(await readTrust(env)).toEqual([good]);
    await writeFile(trustStoreFile(env), JSON.stringify({ trusted: "everything" }));
    expect(await readTrust(env)).toEqual([]);
    await rm(trustStoreFile(env));
  });
});
