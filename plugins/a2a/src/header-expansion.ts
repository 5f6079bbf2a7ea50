import { WeftError } from "@weft/sdk";

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Expands `${VAR}` in header values from `env`. An unset (or empty) variable is an error naming the
 * agent, the header and the variable, never the value of anything.
 */
export function expandHeaders(headers: Record<string, string>, env: Record<string, string | undefined>, agent: string): Record<string, string> {
  const expanded: Record<string, string> = {};
  for (const [header, template] of Object.entries(headers)) {
    expanded[header] = template.replace(VARIABLE, (_match, variable: string) => {
      const value = env[variable];
      if (value === undefined || value === "") {
        throw new WeftError(
          "CREDENTIAL_MISSING",
          `A2A agent ${agent}: header ${header} uses \${${variable}}, which is not set; set ${variable} in the environment`,
        );
      }
      return value;
    });
  }
  return expanded;
}
