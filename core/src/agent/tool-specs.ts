import type { Kernel, ToolSpec } from "@weft/sdk";

/** The tools as the model is told about them: the kernel's registry, sorted by name. */
export function toolSpecs(kernel: Kernel): ToolSpec[] {
  return kernel.tools.list().map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
}
