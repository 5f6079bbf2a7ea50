import { WeftError, expandEnvVariables, registerSecret } from "@weft/sdk";

/**
 * `text` with `${VAR}` and `${VAR:-default}` expanded from `env`, as weft.config.yaml is (the sdk's
 * expansion). An unset variable goes to `fail` with the sdk's text, which names it and never a value.
 */
export function expandVariables(text: string, env: Record<string, string | undefined>, fail: (problem: string) => never): string {
  const expanded = new Set<string>();
  let result: string;
  try {
    result = expandEnvVariables(text, env, expanded);
  } catch (error) {
    if (error instanceof WeftError) return fail(error.message);
    throw error;
  }
  // An expanded value is usually a credential (a token in headers or env): no error may repeat it.
  for (const value of expanded) registerSecret(value);
  return result;
}
