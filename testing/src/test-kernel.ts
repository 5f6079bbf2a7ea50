import { createKernel, type KernelOptions } from "@weft/core";
import type { AnyPlugin, Kernel } from "@weft/sdk";

export type PluginEntry = AnyPlugin | [plugin: AnyPlugin, options: unknown];

/**
 * A ready kernel with `plugins` applied, so a pack author tests a plugin in a few lines:
 *
 *   const kernel = await createTestKernel([[myPack, { root: dir }]]);
 *   const result = await kernel.execute({ name: "my_tool", arguments: {} });
 *
 * `options` are the kernel's: `logger`, `baseDir`, and the host's handles plugins read (`signal`,
 * `waitFor`).
 */
export async function createTestKernel(plugins: PluginEntry[] = [], options: KernelOptions = {}): Promise<Kernel> {
  const kernel = createKernel(options);
  for (const entry of plugins) {
    const [plugin, pluginOptions] = Array.isArray(entry) ? entry : [entry, undefined];
    await kernel.use(plugin, pluginOptions);
  }
  await kernel.ready();
  return kernel;
}
