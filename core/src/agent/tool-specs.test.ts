import { afterEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { PLUGIN_API_VERSION, definePlugin, defineTool, memoryLogger } from "@weft/sdk";
import type { Kernel, Tool } from "@weft/sdk";
import { createKernel } from "../kernel.js";
import { toolSpecs } from "./tool-specs.js";

const kernels: Kernel[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

async function readyKernel(): Promise<Kernel> {
  const kernel = createKernel({ logger: memoryLogger() });
  kernels.push(kernel);
  await kernel.ready();
  return kernel;
}

const tool = (name: string) => defineTool({ name, description: `the ${name} tool`, input: Type.Object({}), execute: () => ({ output: name }) }) as Tool;
const names = (specs: readonly { name: string }[]) => specs.map((spec) => spec.name);

/** Adds a kernel tool through a plugin; closing the handle takes it back. */
function kernelTool(kernel: Kernel, name: string) {
  return kernel.use(definePlugin({ meta: { name: `pack-${name}`, version: "1.0.0", api: PLUGIN_API_VERSION }, setup: (api) => void api.tools.add(tool(name)) }));
}

describe("a session's tool specs", () => {
  it("are the same frozen list from one model call to the next while the tools stay the same", async () => {
    const kernel = await readyKernel();
    await kernelTool(kernel, "b_kernel");
    const session = await kernel.session({});
    session.tools.add(tool("a_own"));
    const first = toolSpecs(session.tools);
    expect(names(first)).toEqual(["a_own", "b_kernel"]);
    expect(toolSpecs(session.tools)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => Array.prototype.push.call(first, { name: "x" })).toThrow(TypeError);
  });

  it("change with the session's own tools, the kernel's tools and the hidden names", async () => {
    const kernel = await readyKernel();
    const session = await kernel.session({});
    const empty = toolSpecs(session.tools);
    expect(empty).toEqual([]);

    const removeOwn = session.tools.add(tool("own"));
    const withOwn = toolSpecs(session.tools);
    expect(names(withOwn)).toEqual(["own"]);

    const shared = await kernelTool(kernel, "shared");
    const withKernel = toolSpecs(session.tools);
    expect(names(withKernel)).toEqual(["own", "shared"]);
    expect(withKernel).not.toBe(withOwn);

    const show = session.tools.hide(["shared"]);
    expect(names(toolSpecs(session.tools))).toEqual(["own"]);
    show();
    expect(names(toolSpecs(session.tools))).toEqual(["own", "shared"]);

    removeOwn();
    expect(names(toolSpecs(session.tools))).toEqual(["shared"]);
    await shared.close();
    expect(toolSpecs(session.tools)).toEqual([]);
  });

  it("of one session are not another's", async () => {
    const kernel = await readyKernel();
    const one = await kernel.session({});
    const other = await kernel.session({});
    one.tools.add(tool("only_one"));
    expect(names(toolSpecs(one.tools))).toEqual(["only_one"]);
    expect(toolSpecs(other.tools)).toEqual([]);
  });
});
