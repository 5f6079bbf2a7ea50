/**
 * One row (framework × scenario) played by several processes of its own (`Row`s), so that the row's
 * figures are not one process's luck. Two processes of one build can differ by several per cent for a
 * whole run (where the JIT and the allocator happened to place things), more than a goal of ≤ 1.05×
 * can afford; pooling the samples of three processes averages that out. Each process does the row's
 * warm-ups; a batch is shared out between the processes; the results add up as one row's.
 */
import { Row } from "./row.mjs";
import { median } from "./stats.mjs";

export class RowGroup {
  #next = 0;

  constructor({ processes, ...options }) {
    this.framework = options.framework;
    this.scenario = options.scenario;
    this.rows = Array.from({ length: processes }, () => new Row(options));
  }

  /** The first failure of any of its processes fails the row; else the answers of all so far. */
  get result() {
    const results = this.rows.map((row) => row.result);
    return results.find((result) => result.error) ?? { correct: sum(results, "correct"), total: sum(results, "total") };
  }

  get alive() {
    return this.rows.every((row) => row.alive);
  }

  /** Started one after another, as every row is, so each import and init is timed alone. */
  async start() {
    for (const row of this.rows) if (this.alive) await row.start();
  }

  /** Warm-ups (`timed: false`) go to every process in full; timed runs are shared out, the remainder rotating. */
  async batch(count, llmCounts, timed = true) {
    const { rows } = this;
    for (let i = 0; i < rows.length && this.alive; i++) {
      const row = rows[(this.#next + i) % rows.length];
      const share = timed ? Math.floor(count / rows.length) + (i < count % rows.length ? 1 : 0) : count;
      if (share > 0) await row.batch(share, llmCounts, timed);
    }
    this.#next = (this.#next + 1) % rows.length;
  }

  /** The processes' results as one row's: samples pooled, counts summed, times and peak RSS the median process's. */
  async finish() {
    const results = [];
    for (const row of this.rows) results.push(await row.finish());
    const failed = results.find((result) => result.error);
    if (failed) return { ...failed, total: sum(results, "total"), correct: sum(results, "correct") };
    const [first] = results;
    return {
      ...first,
      processes: results.length,
      samples: results.flatMap((result) => result.samples),
      cpuSamples: results.flatMap((result) => result.cpuSamples),
      liveHeapsMb: results.flatMap((result) => result.liveHeapsMb),
      correct: sum(results, "correct"),
      total: sum(results, "total"),
      modelCalls: sum(results, "modelCalls"),
      failures: results.flatMap((result) => result.failures).slice(0, 3),
      importMs: median(results.map((result) => result.importMs)),
      initMs: median(results.map((result) => result.initMs)),
      peakRssMb: median(results.map((result) => result.peakRssMb)),
    };
  }

  stop() {
    return Promise.all(this.rows.map((row) => row.stop()));
  }
}

const sum = (results, key) => results.reduce((total, result) => total + result[key], 0);
