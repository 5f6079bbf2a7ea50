/** Summaries of raw latency samples (ms). */

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  // Nearest-rank: the smallest sample with at least p% of samples at or below it.
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / (sorted.length || 1);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    mean,
    min: sorted[0] ?? NaN,
    max: sorted.at(-1) ?? NaN,
  };
}

/** The nearest-rank median of unsorted values. */
export const median = (values) => percentile([...values].sort((a, b) => a - b), 50);
