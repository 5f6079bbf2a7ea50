import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = fileURLToPath(new URL("..", import.meta.url));
const sources = (readdirSync(src, { recursive: true }) as string[]).filter(
  (file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.includes("test-fixtures"),
);

describe("core's sources", () => {
  it("name no first-party plugin: plugins declare their config keys, the sdk's tables name the packages", () => {
    const named = sources.flatMap((file) =>
      readFileSync(path.join(src, file), "utf8")
        .split("\n")
        .flatMap((line, index) => (/@weft\/plugin-[a-z]/.test(line) ? [`${file}:${index + 1}`] : [])),
    );
    // Only the comments that explain the short-name rule (`x` → `@weft/plugin-x`), which may stay.
    expect(named.sort()).toEqual(["config/plugin-resolver.ts:8", "scope.ts:191"]);
  });
});
