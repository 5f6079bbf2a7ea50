// The README's main job: examples/quickstart assembled into one toolkit (MCP servers, skills, the
// built-in tools and a third-party pack), one tool called from each source, and, when a provider key
// is in the environment, `weft run` on a sample task.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { addTrust, findConfigFile, loadProject, readProjectConfig, trustRequest } from "@weft/core";

const root = fileURLToPath(new URL("..", import.meta.url));
const projectDir = `${root}examples/quickstart`;

const heading = (text) => console.log(`\n== ${text}`);
const excerpt = (text, lines = 6) => {
  const all = text.trimEnd().split("\n");
  return [...all.slice(0, lines), ...(all.length > lines ? [`... (${all.length - lines} more lines)`] : [])].map((line) => `   ${line}`).join("\n");
};

// The repository's own example runs code (MCP commands, a skill script, a pack): running this script is
// the user's word that they trust it, so it is recorded, and the `weft` commands this prints work there too.
const trust = await trustRequest(findConfigFile(projectDir), await readProjectConfig(findConfigFile(projectDir)));
await addTrust(trust.file, trust.hash);
console.log(`trusted ${trust.file} for the weft command (undo: cd examples/quickstart && npx weft trust --revoke)`);

const started = performance.now();
const project = await loadProject({
  cwd: projectDir,
  feedback: (event) =>
    event.type === "mcp.status" && console.log(`mcp ${event.server}: ${event.state}${event.state === "connected" ? ` (${event.tools} tools)` : ""}${event.error ? `: ${event.error}` : ""}`),
});
const { toolkit } = project;
try {
  heading(`toolkit of ${project.file} (assembled in ${Math.round(performance.now() - started)} ms)`);
  // Sources in assembly order: MCP → skills → built-ins → agents → packs → the application's own.
  const order = ["mcp", "skill", "builtin", "a2a", "pack", "app"];
  const bySource = new Map();
  const tools = [...toolkit.tools].sort((a, b) => order.indexOf(a.source.kind) - order.indexOf(b.source.kind));
  for (const tool of tools) {
    const key = `${tool.source.kind} ${tool.source.id}`;
    bySource.set(key, (bySource.get(key) ?? 0) + 1);
  }
  for (const [source, count] of bySource) console.log(`${String(count).padStart(3)} ${count === 1 ? "tool " : "tools"}  ${source}`);
  console.log(`${String(toolkit.tools.length).padStart(3)} tools in all; system prompt from the sources: ${Buffer.byteLength(toolkit.prompt)} bytes`);
  for (const status of toolkit.mcpStatus()) console.log(`mcp ${status.name}: ${status.state}, ${status.tools} tools${status.error ? `, ${status.error}` : ""}`);

  heading("one call from each source");
  const calls = [
    ["mcp", "filesystem__list_directory", { path: `${projectDir}/workspace` }],
    ["mcp", "memory__read_graph", {}],
    ["skills", "skill_execute_file", { skill_name: "word-count", path: "scripts/count.sh", args: ["weft gathers every tool source"] }],
    ["built-in", "read", { path: "workspace/CHANGELOG.md", limit: 3 }],
    ["third-party pack", "dice_roll", { sides: 20, count: 2 }],
  ];
  let failures = 0;
  for (const [source, name, args] of calls) {
    const result = await toolkit.execute({ name, arguments: args });
    if (result.isError) failures++;
    console.log(`${result.isError ? "✗" : "✓"} ${source}: ${name} ${JSON.stringify(args)}\n${excerpt(result.output)}`);
  }
  if (failures > 0) process.exitCode = 1;
} finally {
  await toolkit.close();
}

const model = project.config.model;
const keys = { anthropic: "ANTHROPIC_API_KEY", openrouter: "OPENROUTER_API_KEY" };
const key = keys[model?.split("/")[0]];
heading("weft run");
if (key && process.env[key]) {
  const task = "Read workspace/CHANGELOG.md and draft release notes with the release-notes skill.";
  const run = spawnSync(process.execPath, [`${root}cli/bin/weft.js`, "run", task], { cwd: projectDir, stdio: "inherit" });
  if (run.status !== 0) process.exitCode = run.status ?? 1;
} else {
  console.log(`set ${key ?? "a provider key"} to run an agent on ${model}: cd examples/quickstart && npx weft run "<prompt>"`);
}
