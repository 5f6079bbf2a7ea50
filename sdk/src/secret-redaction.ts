/**
 * Credentials this process was configured with (API keys, values `${VAR}` expanded into a config),
 * kept so that no error text or log line repeats them: a provider's error body that echoes the key,
 * an MCP server's failure message quoting its environment.
 */
const secrets = new Set<string>();

/** Shorter values are too likely to occur by chance in ordinary text to be replaced. */
const MIN_SECRET_LENGTH = 8;

export const REDACTED = "[redacted]";

/** Remembers a credential for `redactSecrets`; short or empty values are ignored. */
export function registerSecret(value: string | undefined): void {
  if (value !== undefined && value.length >= MIN_SECRET_LENGTH) secrets.add(value);
}

/** `text` with every registered credential replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  let redacted = text;
  for (const secret of secrets) if (redacted.includes(secret)) redacted = redacted.split(secret).join(REDACTED);
  return redacted;
}

/** The most characters of a value an error repeats back: a 10 MB property name is not echoed whole. */
export const MAX_ECHOED_CHARS = 200;

/** A value as an error shows it: at most 200 characters, then how many more there were. */
export function echoed(value: string): string {
  return value.length <= MAX_ECHOED_CHARS ? value : `${value.slice(0, MAX_ECHOED_CHARS)}… (${value.length - MAX_ECHOED_CHARS} more characters)`;
}
