#!/usr/bin/env node
// The `weft` bin. A committed file (not a build output) so npm can link it, with its execute bit, at
// install time, before any build has run; the command itself lives in dist/.
import module from "node:module";

// Node 22.1+ keeps the compiled code of weft's modules between runs (as tsc does), sparing each start
// the compile of ~1 MB of JavaScript; older Node has no such cache and skips this.
module.enableCompileCache?.();

const { runProcess } = await import("../dist/main.js");
await runProcess();
