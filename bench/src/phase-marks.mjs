/**
 * A runner set up with `config` whose runs report, besides the answer, their CPU time (ms) and the phase
 * marks its `onPhase` calls give (model1, tools, model2) plus `end`, as ms since the run started.
 * Used by phase-split.mjs and scenario-ab.mjs.
 */
export async function phaseMarked(setup, config) {
  let started = 0;
  let marks = {};
  const runner = await setup({ ...config, onPhase: (name) => (marks[name] = performance.now() - started) });
  return {
    async run() {
      marks = {};
      const cpuBefore = process.cpuUsage();
      started = performance.now();
      const answer = await runner.run();
      marks.end = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      return { answer, cpu: (cpu.user + cpu.system) / 1000, marks };
    },
    close: () => runner.close(),
  };
}
