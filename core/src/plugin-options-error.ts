import { WeftError } from "@weft/sdk";
import type { TSchema } from "typebox";
import { checkKey, notePass, passedBefore } from "./passed-checks.js";

export interface OptionProblem {
  /** JSON pointer into the plugin's options, e.g. `/root`. */
  path: string;
  message: string;
}

/** A plugin's options failed its schema. The loader turns `problems` into file:line:column errors. */
export class PluginOptionsError extends WeftError {
  constructor(
    readonly plugin: string,
    readonly problems: OptionProblem[],
  ) {
    super(
      "PLUGIN_OPTIONS_INVALID",
      `invalid options for ${plugin}: ${problems.map((problem) => `${problem.path || "(options)"} ${problem.message}`).join("; ")}`,
    );
  }
}

/**
 * Where `value` fails `schema`. A passing value (every start of a valid project) skips typebox's error
 * walk, and a check that passed before (passed-checks.ts) is not run again, nor is typebox's checker
 * (130 KB, ~7 ms of a start) loaded for it: it loads with the first check that runs.
 */
export async function optionProblems(schema: TSchema, value: unknown): Promise<OptionProblem[]> {
  const key = checkKey(schema, value);
  if (key !== undefined && passedBefore(key)) return [];
  const { Value } = await import("@weft/sdk/typebox-lite");
  if (Value.Check(schema, value)) {
    if (key !== undefined) notePass(key);
    return [];
  }
  return [...Value.Errors(schema, value)].map((error) => ({ path: error.instancePath, message: error.message }));
}
