import { CompactStage } from "@weft/sdk";
import type { CompactionState, FeedbackEvent, Kernel } from "@weft/sdk";
import { pruneToolResults, type PruneOptions } from "./prune-tool-results.js";
import { summarise, type SummariseOptions } from "./summarise.js";

/** The built-in stages one compaction runs, with that agent's options. */
export interface CompactionRoute {
  prune?: PruneOptions;
  summarise?: SummariseOptions;
}

/**
 * The agents' taps on one kernel, registered once however many agents use it (tapable cannot untap,
 * so a tap per agent would pile up). Each compaction is routed to its agent's options by its signal;
 * feedback goes to the agents whose turn is running.
 */
export interface KernelTaps {
  readonly listeners: Set<(event: FeedbackEvent) => void>;
  readonly compactions: WeakMap<AbortSignal, CompactionRoute>;
}

const tapsByKernel = new WeakMap<Kernel, KernelTaps>();

export function kernelTaps(kernel: Kernel): KernelTaps {
  let taps = tapsByKernel.get(kernel);
  if (taps) return taps;
  const created: KernelTaps = { listeners: new Set(), compactions: new WeakMap() };
  const route = (state: CompactionState) => created.compactions.get(state.signal);
  kernel.hooks.feedback.tap((event) => {
    for (const listener of created.listeners) listener(event);
  });
  kernel.hooks.compact.tap({ stage: CompactStage.PRUNE }, (state) => {
    const options = route(state)?.prune;
    return options ? pruneToolResults(state, options) : state;
  });
  kernel.hooks.compact.tap({ stage: CompactStage.SUMMARISE }, (state) => {
    const options = route(state)?.summarise;
    return options ? summarise(state, options) : state;
  });
  tapsByKernel.set(kernel, created);
  return created;
}
