import { idleTimeoutError } from "@weft/sdk/provider";
import type { ProviderError } from "@weft/sdk";

/**
 * The idle timeout weft's own providers get from providerFetch, for a model whose HTTP the AI SDK does:
 * the signal handed to `doStream` aborts when a wait for the provider (its response, the next stream
 * part) lasts `idleTimeoutMs`, which makes the provider's fetch hang up. `touch()` starts a wait,
 * `stop()` ends it.
 */
export class IdleWatch {
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly provider: string,
    private readonly idleTimeoutMs: number,
    callSignal?: AbortSignal,
  ) {
    this.signal = callSignal ? AbortSignal.any([callSignal, this.#controller.signal]) : this.#controller.signal;
  }

  /** Whether the call ended because the stream went quiet (then `error` says so, not "aborted"). */
  get idled(): boolean {
    return this.#controller.signal.aborted;
  }

  touch(): void {
    clearTimeout(this.#timer);
    if (!this.idled) this.#timer = setTimeout(() => this.#controller.abort(), this.idleTimeoutMs);
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  error(retries: number): ProviderError {
    return idleTimeoutError(this.provider, this.idleTimeoutMs, retries);
  }
}
