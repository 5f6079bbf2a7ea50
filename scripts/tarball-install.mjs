// The packages as users get them: the tarballs of `npm run pack` installed with a plain `npm install`
// into a project outside the workspace (no workspace links), and there the root README's library
// example, `npx weft --version`, `weft init`, `weft tools` (also over MCP), and `weft new-plugin` with its own test;
// then @weft/core alone, and @weft/toolkit alone (with only the @weft packages it depends on).
// Usage: node scripts/tarball-install.mjs <tarball folder>. Exits non-zero on the first failure.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runnableBlocks } from "./readme-blocks.mjs";
import { publishablePackages, ROOT } from "./workspace-packages.mjs";

const tarballs = path.resolve(process.argv[2] ?? path.join(ROOT, "tarballs"));
const all = readdirSync(tarballs).filter((file) => file.endsWith(".tgz")).map((file) => path.join(tarballs, file));
const tarball = (name) => all.find((file) => path.basename(file).startsWith(`${name}-`)) ?? assert.fail(`no ${name} tarball in ${tarballs}`);
const app = mkdtempSync(path.join(tmpdir(), "weft-tarballs-"));
const cleanup = [app];
assert.ok(!app.startsWith(ROOT), "the project must be outside the workspace");
// Only PATH and HOME: nothing of the workspace (npm_config_*, NODE_PATH) may leak into the install.
const env = { PATH: process.env.PATH, HOME: process.env.HOME };
const sh = (command, args, cwd = app, extraEnv = {}) => {
  console.error(`$ ${[command, ...args].join(" ")}   (in ${cwd})`);
  return execFileSync(command, args, { cwd, env: { ...env, ...extraEnv }, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
};

try {
  writeFileSync(path.join(app, "package.json"), `${JSON.stringify({ name: "weft-tarball-app", private: true, type: "module" }, null, 2)}\n`);
  sh("npm", ["install", "--no-audit", "--no-fund", ...all]);

  // What license checks and resolvers read in every installed package.
  for (const { manifest } of publishablePackages()) {
    const installed = path.join(app, "node_modules", manifest.name);
    assert.ok(existsSync(path.join(installed, "LICENSE")), `${manifest.name} ships a LICENSE`);
    const shipped = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8"));
    for (const field of ["repository", "homepage", "bugs", "engines", "os"]) assert.ok(shipped[field], `${manifest.name} has ${field}`);
    assert.match(shipped.scripts?.prepack ?? "", /npm run build/, `${manifest.name} builds on prepack`);
    for (const [name, condition] of Object.entries(shipped.exports ?? {})) assert.ok(condition.default, `${manifest.name} exports ${name} with a default condition`);
    for (const [name, range] of Object.entries(shipped.dependencies ?? {})) assert.match(range, /^\^/, `${manifest.name} depends on ${name} by a caret range`);
  }

  const [example] = runnableBlocks(path.join(ROOT, "README.md"));
  assert.ok(example, "the root README has a runnable library example");
  writeFileSync(path.join(app, "example.mjs"), example.code);
  assert.equal(sh("node", ["example.mjs"]), example.expected, "the example prints what the README shows");

  const version = JSON.parse(readFileSync(path.join(ROOT, "cli/package.json"), "utf8")).version;
  assert.equal(sh("npx", ["weft", "--version"]), `${version}\n`);
  assert.equal(sh("npx", ["weft", "init"]), `wrote ${app}/weft.config.yaml and ${app}/weft.config.schema.json\nnext: weft tools, then weft run "<prompt>"\n`);
  assert.match(sh("npx", ["weft", "tools"]), /^bash +builtin:@weft\/plugin-shell .*\n10 tools\n$/ms);
  // The MCP plugin carries the official client bundled in its dist: from its tarball it starts weft's own
  // MCP server (`weft mcp serve`, on the official server SDK) over stdio and lists that project's tools.
  const client = path.join(app, "mcp-client");
  mkdirSync(client);
  writeFileSync(
    path.join(client, "weft.config.yaml"),
    `mcp:\n  mcpServers:\n    self:\n      command: npx\n      args: [weft, mcp, serve, --config, ${JSON.stringify(path.join(app, "weft.config.yaml"))}]\n`,
  );
  // The config starts a command, so it needs trust; WEFT_TRUST_ALL keeps the user's trust store untouched.
  assert.match(sh("npx", ["weft", "tools"], client, { WEFT_TRUST_ALL: "1" }), /^self__bash +mcp:self .*\n10 tools\n$/ms);

  sh("npx", ["weft", "new-plugin", "greeter"]);
  const pack = path.join(app, "weft-plugin-greeter");
  // Until @weft/* is on the registry, the scaffold's weft dependencies come from the tarballs too.
  sh("npm", ["install", "--no-audit", "--no-fund", tarball("weft-sdk"), tarball("weft-core"), tarball("weft-testing")], pack);
  assert.match(sh("npm", ["test"], pack), /1 passed/);
  sh("npm", ["pack", "--dry-run"], pack);
  // @weft/core alone: what is missing is named all at once, with the exact packages to install.
  // A folder of its own: inside the first project, resolution would find that project's plugins.
  const bare = mkdtempSync(path.join(tmpdir(), "weft-core-alone-"));
  cleanup.push(bare);
  writeFileSync(path.join(bare, "package.json"), `${JSON.stringify({ name: "weft-core-alone", private: true, type: "module" }, null, 2)}\n`);
  sh("npm", ["install", "--no-audit", "--no-fund", tarball("weft-sdk"), tarball("weft-core")], bare);
  const probe = `import { createKernel, createToolkit } from "@weft/core";
const failure = (promise) => promise.then(() => "no error", (error) => error.message);
console.log(await failure(createToolkit()));
console.log(await failure(createKernel().createModel("anthropic/claude-sonnet-4-5")));
`;
  writeFileSync(path.join(bare, "probe.mjs"), probe);
  assert.equal(
    sh("node", ["probe.mjs"], bare),
    "4 plugins are not installed: @weft/plugin-shell, @weft/plugin-files, @weft/plugin-web, @weft/plugin-coding. Install them: npm install @weft/plugin-shell @weft/plugin-files @weft/plugin-web @weft/plugin-coding\n" +
      'provider "anthropic" needs its plugin, which is not installed. Install it: npm install @weft/plugin-anthropic\n',
  );

  // @weft/toolkit alone: its tarball and, until they are on the registry, those of the @weft packages it
  // depends on, found from the manifests (nothing named by hand). Its README's example and `weft` work.
  const batteries = mkdtempSync(path.join(tmpdir(), "weft-toolkit-alone-"));
  cleanup.push(batteries);
  writeFileSync(path.join(batteries, "package.json"), `${JSON.stringify({ name: "weft-toolkit-alone", private: true, type: "module" }, null, 2)}\n`);
  const manifests = new Map(publishablePackages().map(({ manifest }) => [manifest.name, manifest]));
  const needed = new Set();
  const need = (name) => {
    const manifest = manifests.get(name);
    if (!manifest || needed.has(name)) return;
    needed.add(name);
    for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) need(dependency);
  };
  need("@weft/toolkit");
  // --ignore-scripts: what this proves is that the dependencies resolve; the first project already built
  // better-sqlite3 from source (minutes on a loaded machine), and nothing here opens a SQLite store.
  sh("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...[...needed].map((name) => tarball(name.replace("@", "").replace("/", "-")))], batteries);
  const [toolkitExample] = runnableBlocks(path.join(ROOT, "toolkit/README.md"));
  assert.ok(toolkitExample, "the toolkit README has a runnable example");
  writeFileSync(path.join(batteries, "example.mjs"), toolkitExample.code);
  assert.equal(sh("node", ["example.mjs"], batteries), toolkitExample.expected, "the toolkit example prints what its README shows");
  assert.equal(sh("npx", ["weft", "--version"], batteries), `${version}\n`);
  console.log(`tarball install: ok (${all.length} tarballs, project ${app}; @weft/toolkit alone with ${needed.size} @weft packages)`);
} finally {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
}
