import { defineConfig } from "vitest/config";
import root from "../vitest.config.js";

// The Restate tests run apart (scripts/ci-restate.sh): their workers need Node 22, which that script provides.
export default defineConfig({ ...root, test: { ...root.test, include: ["restate/src/**/*.test.ts"], testTimeout: 120_000 } });
