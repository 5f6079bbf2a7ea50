import { randomInt } from "node:crypto";
import { Type } from "typebox";
import { defineTool } from "@weft/sdk";

export function coinFlip(random: (max: number) => number = (max) => randomInt(max)) {
  return defineTool({
    name: "coin_flip",
    description: "Flip a fair coin and say heads or tails.",
    input: Type.Object({}),
    annotations: { readOnlyHint: true },
    execute: () => ({ output: random(2) === 0 ? "heads" : "tails" }),
  });
}
