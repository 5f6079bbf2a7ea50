import { registerSecret } from "@weft/sdk";

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces every `${VAR}` in `text` with its value from `env`. An unset variable is reported by name
 * through `missing` (never its value: values may be secrets) and left as it was.
 */
export function expandVariables(text: string, env: Record<string, string | undefined>, missing: (name: string) => void): string {
  return text.replace(REFERENCE, (reference, name: string) => {
    const value = env[name];
    if (value === undefined) {
      missing(name);
      return reference;
    }
    // An expanded value is usually a credential (a token in headers or env): no error may repeat it.
    registerSecret(value);
    return value;
  });
}
