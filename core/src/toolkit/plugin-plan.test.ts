import { describe, expect, it } from "vitest";
import { PLUGIN_API_VERSION, builtinsConfigKey, definePlugin, type AnyPlugin } from "@weft/sdk";
import { planPlugins, type PlanEnvironment } from "./plugin-plan.js";

const pack = (name: string): AnyPlugin =>
  definePlugin({ meta: { name, version: "1.0.0", api: PLUGIN_API_VERSION }, config: { builtins: builtinsConfigKey() }, setup() {} }) as AnyPlugin;

describe("planning a config's plugins", () => {
  it("starts loading the packages a key names beside the listed plugins, not once those have loaded", async () => {
    const asked: string[] = [];
    let finishListed: (() => void) | undefined;
    const listedPlugin = definePlugin({ meta: { name: "listed", version: "1.0.0", api: PLUGIN_API_VERSION }, setup() {} }) as AnyPlugin;
    const env: PlanEnvironment = {
      load: (name) => {
        asked.push(name);
        if (name === "./listed.js") return new Promise((resolve) => (finishListed = () => resolve({ plugin: listedPlugin, from: "file:///listed.js" })));
        return Promise.resolve({ plugin: pack(name), from: `file:///${name}.js` });
      },
      own: [],
      context: { baseDir: "/project", hostTools: [] },
      locate: (_spec, error) => error as Error,
      ownOptions: [],
    };
    const planning = planPlugins({ builtins: true }, {}, [{ name: "./listed.js", path: ["plugins", 0] }], env);
    // The listed plugin has not loaded yet: the four packs of `builtins` are being loaded all the same.
    await new Promise((resolve) => setImmediate(resolve));
    expect([...asked].sort()).toEqual(["./listed.js", "@weft/plugin-coding", "@weft/plugin-files", "@weft/plugin-shell", "@weft/plugin-web"]);
    finishListed?.();
    const planned = await planning;
    expect(planned.map((entry) => entry.plugin.meta.name)).toEqual(["@weft/plugin-shell", "@weft/plugin-files", "@weft/plugin-web", "@weft/plugin-coding", "listed"]);
    // Each is loaded once, though the key asked for it again.
    expect(asked).toHaveLength(5);
  });
});
