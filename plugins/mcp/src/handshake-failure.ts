import { ProtocolError, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/client";
import { errorMessage } from "@weft/sdk";
import { describeRemoteFailure } from "./remote-transport.js";

/** What the SDK says when the server answers `initialize` with a version it does not speak. */
const UNSUPPORTED_VERSION = /^Server's protocol version is not supported: (.*)$/;

/**
 * A failed `initialize` said the way a user can act on it: the server's own error reply, or the version
 * it answered with next to the ones weft offered; a remote failure names the URL. (A stdio server that
 * died on its own is described by its exit, before this.)
 */
export function describeHandshakeFailure(error: unknown, url: string | undefined): string {
  const [offered, ...accepted] = SUPPORTED_PROTOCOL_VERSIONS;
  const version = UNSUPPORTED_VERSION.exec(errorMessage(error))?.[1];
  if (version !== undefined) {
    return `the server answered the handshake with protocol version "${version}", which weft does not speak (weft offered ${offered} and also accepts ${accepted.join(", ")})`;
  }
  if (error instanceof ProtocolError) return `the server refused the handshake: ${error.message} (weft offered protocol version ${offered})`;
  return url === undefined ? errorMessage(error) : describeRemoteFailure(error, url);
}
