import { WeftError } from "./errors.js";

// `${VAR}` and `${VAR:-default}`, the two forms Claude Code expands in .mcp.json: a bare `$VAR` stays
// literal, a default is used when VAR is unset or empty (the shell's `:-`), and values are not expanded
// again (no recursion, so no loops). Unlike Claude Code, an unset `${VAR}` without a default is an error:
// passing the text on literally only fails later and further away (a server receiving `Bearer ${KEY}`).
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * `text` with every `${VAR}` / `${VAR:-default}` replaced from `env`. Each value taken from the
 * environment is added to `expanded` when given, so a host can treat them as secrets (redaction).
 * Throws a WeftError (CONFIG_INVALID) naming the first unset variable; callers add the file and line.
 */
export function expandEnvVariables(text: string, env: Readonly<Record<string, string | undefined>>, expanded?: Set<string>): string {
  return text.replace(REFERENCE, (_, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && (value !== "" || fallback === undefined)) {
      expanded?.add(value);
      return value;
    }
    if (fallback !== undefined) return fallback;
    throw new WeftError("CONFIG_INVALID", `environment variable ${name} is not set (set it, or write \${${name}:-default} for a fallback)`);
  });
}
