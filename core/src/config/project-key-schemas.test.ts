import { describe, expect, it } from "vitest";
import { PROJECT_OPTIONS } from "./project-config.js";
import { PROJECT_KEY_SCHEMAS } from "./project-key-schemas.js";

describe("the project's own keys in weft config schema", () => {
  it("are the options the project checks, no more and no fewer", () => {
    expect(Object.keys(PROJECT_KEY_SCHEMAS).sort()).toEqual([...PROJECT_OPTIONS].sort());
  });
});
