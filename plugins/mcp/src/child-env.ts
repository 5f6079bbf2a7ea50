/** What a stdio server inherits from the host when its entry asks for nothing more. */
export const INHERITED_VARIABLES = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
  "TMPDIR",
  "LANG",
  "TZ",
  "SSL_CERT_DIR",
  "SSL_CERT_FILE",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "all_proxy",
] as const;

/**
 * The environment of a stdio server: a short list of the host's variables (every `LC_*` too), the names in
 * `inheritEnv` that are set, then the entry's own `env`. API keys and the like in the host's environment
 * never reach a server that was not given them.
 */
export function childEnvironment(
  parent: Record<string, string | undefined>,
  inheritEnv: readonly string[],
  env: Record<string, string>,
): Record<string, string> {
  const names = new Set<string>([...INHERITED_VARIABLES, ...Object.keys(parent).filter((name) => name.startsWith("LC_")), ...inheritEnv]);
  const child: Record<string, string> = {};
  for (const name of names) {
    const value = parent[name];
    // A bash function exported into the environment (`() { ...`) is code, not a setting.
    if (value !== undefined && !value.startsWith("()")) child[name] = value;
  }
  return { ...child, ...env };
}
