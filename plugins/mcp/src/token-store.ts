import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import type { OAuthClientInformationMixed, OAuthDiscoveryState, OAuthTokens } from "@modelcontextprotocol/client";
import { WeftError, errorCode, errorMessage } from "@weft/sdk";

/** What weft keeps for one remote server between runs: its tokens, its registration and what discovery found. */
export interface StoredAuthorization {
  tokens?: OAuthTokens;
  /** The client registered dynamically (or a pre-registered one, stamped with its authorization server). */
  client?: OAuthClientInformationMixed;
  discovery?: OAuthDiscoveryState;
  /** The redirect URI the registered client was given: later sign-ins must use the same. */
  redirectUri?: string;
  /**
   * Sign-ins started and not finished, by the OAuth `state` their authorization URL carries: what the
   * redirect back needs, so that another process (or a later run) can finish one. Dropped once expired.
   */
  signIns?: Record<string, PendingSignIn>;
}

/** A sign-in in progress: the PKCE verifier of its authorization URL, its redirect URI and when it expires. */
export interface PendingSignIn {
  codeVerifier: string;
  redirectUri: string;
  /** Epoch milliseconds; past it the redirect is refused and the user signs in again. */
  expiresAt: number;
}

/** Where OAuth state persists, by server URL. Pluggable: the plugin's `tokenStore` option. */
export interface McpTokenStore {
  get(serverUrl: string): Promise<StoredAuthorization | undefined>;
  set(serverUrl: string, value: StoredAuthorization): Promise<void>;
  /** Forgets a server; false when nothing was stored. */
  delete(serverUrl: string): Promise<boolean>;
}

/**
 * The default token file: `$WEFT_CONFIG_DIR/mcp-tokens.json`, else `$XDG_CONFIG_HOME/weft/mcp-tokens.json`,
 * else `~/.config/weft/mcp-tokens.json` (beside the trust store, outside every project).
 */
export function defaultTokenFile(env: Record<string, string | undefined> = process.env): string {
  const dir = env.WEFT_CONFIG_DIR ?? path.join(env.XDG_CONFIG_HOME ?? path.join(homedir(), ".config"), "weft");
  return path.join(dir, "mcp-tokens.json");
}

/**
 * A token store in one JSON file, readable by its owner only (0600, in a 0700 folder). Each change
 * rewrites the file through a temporary one and a rename, so a crash never leaves half a file; changes
 * of one process run one at a time.
 */
export function fileTokenStore(file: string = defaultTokenFile()): McpTokenStore {
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };
  const read = async (): Promise<Record<string, StoredAuthorization>> => {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if (errorCode(error) === "ENOENT") return {};
      throw new WeftError("MCP_AUTH_FAILED", `cannot read the MCP token store ${file}: ${errorMessage(error)}`, { cause: error });
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, StoredAuthorization>;
    } catch {
      // Reported below, with the file's name.
    }
    throw new WeftError("MCP_AUTH_FAILED", `the MCP token store ${file} is not a JSON object; delete it to sign in again`);
  };
  const write = async (all: Record<string, StoredAuthorization>) => {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
    // `mode` applies only when the file is created: a leftover temporary file keeps its own.
    await chmod(temporary, 0o600);
    await rename(temporary, file);
  };
  return {
    get: (serverUrl) => serial(async () => (await read())[serverUrl]),
    set: (serverUrl, value) =>
      serial(async () => {
        const all = await read();
        all[serverUrl] = value;
        await write(all);
      }),
    delete: (serverUrl) =>
      serial(async () => {
        const all = await read();
        if (!(serverUrl in all)) return false;
        delete all[serverUrl];
        await write(all);
        return true;
      }),
  };
}
