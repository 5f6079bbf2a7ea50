import type { Kernel } from "../kernel.js";
import type { Logger } from "../logger.js";
import type { AnyPlugin } from "../plugin.js";

export type PluginEntry = AnyPlugin | [plugin: AnyPlugin, options: unknown];

/**
 * A ready kernel with `plugins` applied, so a pack author tests a plugin in a few lines:
 *
 *   const kernel = await createTestKernel([[myPack, { root: dir }]]);
 *   const result = await kernel.execute({ name: "my_tool", arguments: {} });
 *
 * The kernel is @weft/core's: the sdk defines its contract and loads the implementation at run time,
 * so packs keep depending on @weft/sdk alone and add @weft/core as a dev dependency for tests.
 */
export async function createTestKernel(plugins: PluginEntry[] = [], options: { logger?: Logger; baseDir?: string } = {}): Promise<Kernel> {
  const core = "@weft/core";
  const { createKernel } = (await import(core)) as { createKernel(options?: object): Kernel };
  const kernel = createKernel(options);
  for (const entry of plugins) {
    const [plugin, pluginOptions] = Array.isArray(entry) ? entry : [entry, undefined];
    await kernel.use(plugin, pluginOptions);
  }
  await kernel.ready();
  return kernel;
}
