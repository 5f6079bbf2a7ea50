// `node --import <this file>` with WEFT_TEST_MODULES=<file>: appends there, one a line, the URL of every
// ES module the process loads (start-modules.test.ts asks what a start loads).
import { register } from "node:module";

register("./record-modules-hooks.mjs", import.meta.url, { data: { file: process.env.WEFT_TEST_MODULES } });
