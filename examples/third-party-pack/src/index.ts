import { Type } from "typebox";
import { PLUGIN_API_VERSION, definePlugin } from "@weft/sdk";
import { coinFlip } from "./coin-flip.js";
import { diceRoll } from "./dice-roll.js";

export { coinFlip } from "./coin-flip.js";
export { diceRoll } from "./dice-roll.js";

/** The pack: `plugins: [dice]` in weft.config.yaml. `coin: false` leaves the coin out. */
export default definePlugin({
  meta: { name: "weft-plugin-dice", version: "0.1.0", api: PLUGIN_API_VERSION, description: "Dice rolls and coin flips" },
  options: Type.Object({
    coin: Type.Boolean({ default: true, description: "Also offer coin_flip" }),
  }),
  setup(api, options) {
    api.hooks.tools.tap((tools) => {
      tools.add(diceRoll());
      if (options.coin) tools.add(coinFlip());
    });
  },
});
