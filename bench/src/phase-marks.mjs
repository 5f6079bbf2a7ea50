/**
 * A runner set up with `config` whose runs report, besides the answer, their CPU time (ms) and the phase
 * marks its `onPhase` calls give (model1, tools, model2) plus `end`: `marks` as ms since the run started,
 * `cpuMarks` as this process's CPU ms since then.
 * Used by phase-split.mjs and scenario-ab.mjs.
 */
export async function phaseMarked(setup, config) {
  let started = 0;
  let cpuBefore = process.cpuUsage();
  let marks = {};
  let cpuMarks = {};
  const cpuSince = () => {
    const cpu = process.cpuUsage(cpuBefore);
    return (cpu.user + cpu.system) / 1000;
  };
  const runner = await setup({
    ...config,
    onPhase: (name) => {
      marks[name] = performance.now() - started;
      cpuMarks[name] = cpuSince();
    },
  });
  return {
    async run() {
      marks = {};
      cpuMarks = {};
      cpuBefore = process.cpuUsage();
      started = performance.now();
      const answer = await runner.run();
      marks.end = performance.now() - started;
      cpuMarks.end = cpuSince();
      return { answer, cpu: cpuMarks.end, marks, cpuMarks };
    },
    close: () => runner.close(),
  };
}
