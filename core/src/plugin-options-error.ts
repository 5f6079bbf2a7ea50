import { WeftError } from "@weft/sdk";

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
