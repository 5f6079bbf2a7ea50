// Swaps root entries for symlinks to outside targets and back, as fast as it can, `count` times each:
// `entry` (a file) and `dir` (a folder). Every swap is a rename, so each name always exists.
import { renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

const [root, outsideFile, outsideDir, countText] = process.argv.slice(2);
const count = Number(countText);
const at = (name) => path.join(root, name);
// A writer may create `dir` again in the instant it is missing; that folder is removed and the move retried.
// The removal can lose a race too (the writer puts a file in it meanwhile: ENOTEMPTY), and is retried the same way.
const moveOver = (from, to) => {
  for (;;) {
    try {
      return renameSync(at(from), at(to));
    } catch {
      try {
        rmSync(at(to), { recursive: true, force: true });
      } catch {}
    }
  }
};
for (let i = 0; i < count; i += 1) {
  symlinkSync(outsideFile, at("entry.link"));
  renameSync(at("entry.link"), at("entry"));
  writeFileSync(at("entry.new"), "inside\n");
  renameSync(at("entry.new"), at("entry"));
  symlinkSync(outsideDir, at("dir.link"));
  renameSync(at("dir"), at("dir.real"));
  moveOver("dir.link", "dir");
  unlinkSync(at("dir"));
  moveOver("dir.real", "dir");
}
process.stdout.write(`swapped ${count}\n`);
