// The code blocks of a README marked runnable (```js runnable or ```ts runnable: plain ESM that Node runs
// as written), for the tests that execute them.
import { readFileSync } from "node:fs";

/** @returns {{ code: string, line: number }[]} each block's text and the README line its fence opens on */
export function runnableBlocks(file) {
  const lines = readFileSync(file, "utf8").split("\n");
  const blocks = [];
  for (let index = 0; index < lines.length; index++) {
    if (!/^```(js|ts) runnable\s*$/.test(lines[index])) continue;
    const end = lines.indexOf("```", index + 1);
    if (end === -1) throw new Error(`${file}:${index + 1}: runnable block never closes`);
    blocks.push({ code: `${lines.slice(index + 1, end).join("\n")}\n`, line: index + 1 });
    index = end;
  }
  return blocks;
}
