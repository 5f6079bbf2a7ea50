import { describe, it } from "vitest";
import { runSessionStoreConformance } from "@weft/sdk/testing";
import { memorySessionStore } from "./memory-session-store.js";

runSessionStoreConformance({ describe, it }, "memory", { fresh: async () => memorySessionStore() });
