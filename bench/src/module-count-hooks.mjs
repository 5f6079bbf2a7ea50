// Loader hooks (a thread of their own) for module-count.mjs: every ES module URL loaded, one a line.
import { appendFileSync } from "node:fs";

let file;
export function initialize(data) {
  file = data.file;
}
export async function load(url, context, next) {
  if (!url.startsWith("node:")) appendFileSync(file, `${url}\n`);
  return next(url, context);
}
