import { defineTool } from "@weft/sdk";
import { Type } from "typebox";

/** The tool most core tests call: it adds two numbers, so a result shows which arguments reached it. */
export const add = defineTool({
  name: "add",
  description: "Add two numbers",
  input: Type.Object({ a: Type.Number(), b: Type.Number() }),
  execute: ({ a, b }) => ({ output: String(a + b) }),
});
