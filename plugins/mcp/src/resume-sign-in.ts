import { auth } from "@modelcontextprotocol/client";
import { WeftError, errorMessage } from "@weft/sdk";
import type { WeftOAuthProvider } from "./oauth-provider.js";
import { redirectParts } from "./sign-in.js";

/** What the authorization server redirected the browser to: the URL, or its `code` and `state`. */
export type SignInRedirect = string | { code: string; state: string };

/**
 * Finishes a sign-in from its redirect, whichever process started it: the redirect's `state` picks the
 * sign-in in progress the token store kept (refused once it expired), whose PKCE verifier goes with the
 * code to the token endpoint. The tokens are stored like those of any sign-in.
 */
export async function resumeSignIn(provider: WeftOAuthProvider, serverUrl: string, server: string, redirect: SignInRedirect): Promise<void> {
  let code: string;
  let state: string | null;
  if (typeof redirect === "string") {
    if (!URL.canParse(redirect)) throw new WeftError("MCP_AUTH_FAILED", `the redirect of the sign-in to MCP server "${server}" is not a URL: ${redirect}`);
    ({ code, state } = redirectParts(new URL(redirect), server));
  } else {
    ({ code, state } = redirect);
  }
  if (!state) throw new WeftError("MCP_AUTH_FAILED", `the redirect of the sign-in to MCP server "${server}" carries no state, so it cannot be matched to a sign-in weft started`);
  await provider.resume(state, server);
  let result: string;
  try {
    result = await auth(provider, { serverUrl, authorizationCode: code });
  } catch (error) {
    throw new WeftError("MCP_AUTH_FAILED", `the authorization server refused the code of the sign-in to MCP server "${server}": ${errorMessage(error)}`, { cause: error });
  }
  if (result !== "AUTHORIZED") throw new WeftError("MCP_AUTH_FAILED", `the sign-in to MCP server "${server}" did not end with tokens; sign in again`);
}
