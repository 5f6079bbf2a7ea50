import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kernel, Suspension, WaitFor } from "@weft/sdk";
import { closeAfterEach } from "@weft/sdk/testing";
import { defaultTokenFile, fileTokenStore, type McpTokenStore } from "../token-store.js";
import { startProtectedMcp, type ProtectedMcp } from "./oauth-servers.js";

type Hook = (fn: () => Promise<void>) => void;

/** What the sign-in tests of one file share: a server behind OAuth, where its tokens are kept, a browser. */
export interface GuardedServer {
  /** The authorization server and the MCP server it guards (started before the file's tests). */
  readonly server: ProtectedMcp;
  /** The token file in the file's temporary config dir. */
  readonly tokenFile: string;
  tokenStore(): McpTokenStore;
  /** The user's browser: opens the sign-in page, which redirects to weft's loopback listener. */
  readonly browser: WaitFor;
  /** What the browser was asked during the test (emptied after each). */
  readonly asked: Suspension[];
  /** Closes `kernel` after the test, passed or failed. */
  track(kernel: Kernel): Kernel;
}

/**
 * Starts the guarded server and a temporary config dir (`WEFT_CONFIG_DIR`) before the file's tests, and
 * removes both after them; the runner's hooks are passed in, as with the sdk's test kit.
 */
export function useGuardedServer(prefix: string, hooks: { beforeAll: Hook; afterEach: Hook; afterAll: Hook }): GuardedServer {
  let server: ProtectedMcp | undefined;
  let configDir: string | undefined;
  const asked: Suspension[] = [];
  const track = closeAfterEach(hooks.afterEach);
  hooks.beforeAll(async () => {
    server = await startProtectedMcp();
    configDir = await mkdtemp(join(tmpdir(), prefix));
  });
  hooks.afterEach(async () => {
    asked.length = 0;
  });
  hooks.afterAll(async () => {
    await server?.close();
    if (configDir) await rm(configDir, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("useGuardedServer: read in a test, after beforeAll");
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get tokenFile() {
      return defaultTokenFile({ WEFT_CONFIG_DIR: started(configDir) });
    },
    tokenStore() {
      return fileTokenStore(this.tokenFile);
    },
    browser: async (suspension) => {
      asked.push(suspension);
      await fetch(suspension.url ?? "", { redirect: "follow" });
      return { action: "accept" };
    },
    asked,
    track,
  };
}
