import { afterEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { defineTool, memoryLogger } from "@weft/sdk";
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
const kernelSource = { kind: "pack", id: "test" } as const;

describe("a session's tool specs", () => {
  it("are the same frozen list from one model call to the next while the tools stay the same", async () => {
    const kernel = await readyKernel();
    kernel.tools.add(tool("b_kernel"), kernelSource);
    const session = await kernel.session({ tools: { add: [] } });
    session.tools.add(tool("a_own"));
    const first = toolSpecs(session.tools);
    expect(names(first)).toEqual(["a_own", "b_kernel"]);
    expect(toolSpecs(session.tools)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => (first as { name: string }[]).push({ name: "x" })).toThrow(TypeError);
  });

  it("change with the session's own tools, the kernel's tools and the hidden names", async () => {
    const kernel = await readyKernel();
    const session = await kernel.session({});
    const empty = toolSpecs(session.tools);
    expect(empty).toEqual([]);

    const removeOwn = session.tools.add(tool("own"));
    const withOwn = toolSpecs(session.tools);
    expect(names(withOwn)).toEqual(["own"]);

    const removeKernel = kernel.tools.add(tool("shared"), kernelSource);
    const withKernel = toolSpecs(session.tools);
    expect(names(withKernel)).toEqual(["own", "shared"]);
    expect(withKernel).not.toBe(withOwn);

    const show = session.tools.hide(["shared"]);
    expect(names(toolSpecs(session.tools))).toEqual(["own"]);
    show();
    expect(names(toolSpecs(session.tools))).toEqual(["own", "shared"]);

    removeOwn();
    expect(names(toolSpecs(session.tools))).toEqual(["shared"]);
    removeKernel();
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
