// The code blocks of the READMEs marked runnable (```js runnable or ```ts runnable: plain ESM that
// Node runs as written), for the tests that execute them. A plain ``` block right after one (blank
// lines between allowed) is the output it prints, and the tests hold it to that.
import { readFileSync } from "node:fs";

/** @returns {{ code: string, line: number, expected?: string }[]} each block, the README line its fence opens on, its output */
export function runnableBlocks(file) {
  const lines = readFileSync(file, "utf8").split("\n");
  const blocks = [];
  for (let index = 0; index < lines.length; index++) {
    if (!/^```(js|ts) runnable\s*$/.test(lines[index] ?? "")) continue;
    const end = lines.indexOf("```", index + 1);
    if (end === -1) throw new Error(`${file}:${index + 1}: runnable block never closes`);
    const block = { code: `${lines.slice(index + 1, end).join("\n")}\n`, line: index + 1 };
    let next = end + 1;
    while (lines[next] === "") next++;
    if (lines[next] === "```") {
      const outputEnd = lines.indexOf("```", next + 1);
      if (outputEnd !== -1) block.expected = `${lines.slice(next + 1, outputEnd).join("\n")}\n`;
    }
    blocks.push(block);
    index = end;
  }
  return blocks;
}
