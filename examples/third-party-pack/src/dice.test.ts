import { describe, expect, it } from "vitest";
import { defined, createTestKernel } from "@weft/testing";
import dice, { diceRoll } from "./index.js";

describe("weft-plugin-dice", () => {
  it("registers its tools", async () => {
    const kernel = await createTestKernel([dice]);
    expect(kernel.tools.list().map((tool) => tool.name)).toEqual(["coin_flip", "dice_roll"]);
    const without = await createTestKernel([[dice, { coin: false }]]);
    expect(without.tools.list().map((tool) => tool.name)).toEqual(["dice_roll"]);
    await Promise.all([kernel.close(), without.close()]);
  });

  it("rolls through the kernel's execute path", async () => {
    const kernel = await createTestKernel([dice]);
    const result = await kernel.execute({ name: "dice_roll", arguments: { sides: 6, count: 3 } });
    const faces = (result.metadata as { faces: number[] }).faces;
    expect(faces).toHaveLength(3);
    expect(faces.every((face) => face >= 1 && face <= 6)).toBe(true);
    expect(result.output).toBe(`rolled 3d6: ${faces.join(", ")} (total ${faces.reduce((a, b) => a + b)})`);
    expect(await kernel.execute({ name: "dice_roll", arguments: { sides: 1 } })).toEqual({
      output: "invalid arguments for dice_roll:\n- /sides: must be >= 2",
      isError: true,
    });
    await kernel.close();
  });

  it("reports pinned faces exactly", async () => {
    const faces = [3, 0, 5];
    const tool = diceRoll(() => defined(faces.shift()));
    expect(await tool.execute({ sides: 6, count: 3 }, {} as never)).toEqual({
      output: "rolled 3d6: 4, 1, 6 (total 11)",
      metadata: { faces: [4, 1, 6], total: 11 },
    });
  });

  it("publishes the descriptions and schemas the model reads", async () => {
    const kernel = await createTestKernel([dice]);
    expect(kernel.tools.list().map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))).toEqual([
      { name: "coin_flip", description: "Flip a fair coin and say heads or tails.", inputSchema: { type: "object", properties: {} } },
      {
        name: "dice_roll",
        description: "Roll dice and return each face and the total. Use it whenever the user asks for a random roll.",
        inputSchema: {
          type: "object",
          required: ["sides"],
          properties: {
            sides: { type: "integer", minimum: 2, maximum: 1000, description: "Faces per die, e.g. 6 or 20" },
            count: { type: "integer", minimum: 1, maximum: 100, description: "How many dice (default 1)" },
          },
        },
      },
    ]);
    await kernel.close();
  });
});
