import { randomInt } from "node:crypto";
import { Type } from "typebox";
import { defineTool } from "@weft/sdk";

/** Rolls `count` dice of `sides` sides; `random` is injectable so tests can pin the faces. */
export function diceRoll(random: (max: number) => number = (max) => randomInt(max)) {
  return defineTool({
    name: "dice_roll",
    description: "Roll dice and return each face and the total. Use it whenever the user asks for a random roll.",
    input: Type.Object({
      sides: Type.Integer({ minimum: 2, maximum: 1000, description: "Faces per die, e.g. 6 or 20" }),
      count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: "How many dice (default 1)" })),
    }),
    annotations: { readOnlyHint: true },
    execute: ({ sides, count = 1 }) => {
      const faces = Array.from({ length: count }, () => random(sides) + 1);
      const total = faces.reduce((sum, face) => sum + face, 0);
      return { output: `rolled ${count}d${sides}: ${faces.join(", ")} (total ${total})`, metadata: { faces, total } };
    },
  });
}
