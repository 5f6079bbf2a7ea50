import { errorMessage, expandEnvVariables, WeftError } from "@weft/sdk";

/**
 * Expands `${VAR}` and `${VAR:-default}` in header values from `env`, by the rules weft.config.yaml and
 * mcp.json follow (the sdk's `expandEnvVariables`), so headers given to `createToolkit` in code behave as
 * those written in a config. An unset variable without a default is an error naming the agent, the
 * header and the variable, never the value of anything.
 */
export function expandHeaders(headers: Record<string, string>, env: Record<string, string | undefined>, agent: string): Record<string, string> {
  const expanded: Record<string, string> = {};
  for (const [header, template] of Object.entries(headers)) {
    try {
      expanded[header] = expandEnvVariables(template, env);
    } catch (error) {
      throw new WeftError("CREDENTIAL_MISSING", `A2A agent ${agent}: header ${header}: ${errorMessage(error)}`, { cause: error });
    }
  }
  return expanded;
}
