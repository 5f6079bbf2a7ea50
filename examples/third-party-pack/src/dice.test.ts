import { describe, expect, it } from "vitest";
import { createTestKernel } from "@weft/sdk/testing";
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
    const tool = diceRoll(() => faces.shift()!);
    expect(await tool.execute({ sides: 6, count: 3 }, {} as never)).toEqual({
      output: "rolled 3d6: 4, 1, 6 (total 11)",
      metadata: { faces: [4, 1, 6], total: 11 },
    });
  });
});
