#!/usr/bin/env node
// The `weft` bin. A committed file (not a build output) so npm can link it, with its execute bit, at
// install time, before any build has run; the command itself lives in dist/.
import { runProcess } from "../dist/main.js";

await runProcess();
