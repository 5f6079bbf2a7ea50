/**
 * The orchestrator's side of one row (framework × scenario): a forked row-worker on this Node binary,
 * asked to start, to run batches, and to finish; every step has a time limit after which the row is
 * killed and reported as hung. Collects the row's samples, correctness and model-call count.
 */
import { fork } from "node:child_process";
import { join } from "node:path";

/** A step that has not answered by then is reported as hung. */
const STEP_TIMEOUT_MS = 120_000;
/** How long a row may take to exit once told to (a --cpu-prof profile is written at exit). */
const EXIT_TIMEOUT_MS = 30_000;

export class Row {
  constructor({ framework, scenario, srcDir, config, nodeFlags = [] }) {
    Object.assign(this, { framework, scenario });
    this.result = { framework, scenario, ok: false, samples: [], cpuSamples: [], liveHeapsMb: [], correct: 0, total: 0, modelCalls: 0, failures: [] };
    this.child = fork(join(srcDir, "row-worker.mjs"), [JSON.stringify(config)], {
      execArgv: nodeFlags,
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      env: { ...process.env, NODE_ENV: "production" },
    });
    this.exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.stderr = "";
    this.child.stderr.on("data", (chunk) => {
      this.stderr = (this.stderr + chunk).slice(-2000);
    });
  }

  get alive() {
    return !this.result.error;
  }

  /** Sends one request and waits for its answer, the process's death or the time limit. */
  #ask(message) {
    return new Promise((resolve) => {
      const done = (reply) => {
        clearTimeout(timer);
        this.child.off("message", done);
        this.child.off("exit", died);
        resolve(reply);
      };
      const died = (code, signal) => done({ type: "failed", error: `the process exited (${signal ?? code}) during ${message.type}: ${this.stderr}` });
      const timer = setTimeout(() => {
        this.child.kill("SIGKILL");
        done({ type: "failed", error: `${message.type} did not finish within ${STEP_TIMEOUT_MS / 1000} s: ${this.stderr}` });
      }, STEP_TIMEOUT_MS);
      this.child.on("message", done);
      this.child.on("exit", died);
      this.child.send(message);
    });
  }

  #fail(reply) {
    this.result.error = reply.error;
    this.child.kill("SIGKILL");
  }

  async start() {
    const reply = await this.#ask({ type: "start" });
    if (reply.type === "failed") return this.#fail(reply);
    this.result.importMs = reply.importMs;
    this.result.initMs = reply.initMs;
  }

  /**
   * Runs `count` conversations; `timed: false` for warm-ups, whose answers still count for correctness.
   * `heap`: then the live heap after a full collection goes into `result.liveHeapsMb` (needs --expose-gc).
   */
  async batch(count, llmCounts, timed = true, heap = false) {
    if (!this.alive) return;
    const before = llmCounts.modelCalls;
    const reply = await this.#ask({ type: "batch", count, heap });
    if (reply.type === "failed") return this.#fail(reply);
    this.result.modelCalls += llmCounts.modelCalls - before;
    this.result.correct += reply.correct;
    this.result.total += count;
    if (timed) {
      this.result.samples.push(...reply.samples);
      this.result.cpuSamples.push(...reply.cpuSamples);
    }
    if (reply.liveHeapMb !== undefined) this.result.liveHeapsMb.push(reply.liveHeapMb);
    for (const failure of reply.failures) if (this.result.failures.length < 3) this.result.failures.push(failure);
  }

  async finish() {
    if (!this.alive) return this.result;
    const reply = await this.#ask({ type: "finish" });
    if (reply.type === "failed") this.#fail(reply);
    else Object.assign(this.result, { peakRssMb: reply.peakRssMb, liveHeapMb: reply.liveHeapMb });
    return this.result;
  }

  /**
   * Lets the process end on its own, so that a --cpu-prof profile gets written: a finished row exits
   * by itself, an unfinished one is disconnected (its cue to exit). Killed if it is not gone in time.
   */
  async stop() {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    if (this.child.connected) this.child.disconnect();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), EXIT_TIMEOUT_MS);
    await this.exited;
    clearTimeout(timer);
  }
}
