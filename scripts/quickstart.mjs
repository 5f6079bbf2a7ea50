// The README's main job: the weft command on examples/quickstart. It shows the plugins the project
// enables, the tool list the model would get, and one tool call through the execute path.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const project = `${root}examples/quickstart`;
const weft = `${root}cli/dist/main.js`;

const steps = [
  ["plugins"],
  ["tools"],
  ["call", "dice_roll", '{"sides":20,"count":2}'],
];

for (const args of steps) {
  console.log(`\n$ weft ${args.map((arg) => (/[\s"{]/.test(arg) ? `'${arg}'` : arg)).join(" ")}`);
  const result = spawnSync(process.execPath, [weft, ...args], { cwd: project, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
