import type { StreamEvent } from "./chat-model.js";
import { ProviderError } from "./errors.js";
import type { AssistantMessage } from "./message.js";

/**
 * Drains a StreamEvent stream and returns its final message: how every provider's `chat()` is its
 * `stream()`. A stream that ends without `done` is an error, never a short answer.
 */
export async function collectMessage(events: AsyncIterable<StreamEvent>, provider: string): Promise<AssistantMessage> {
  for await (const event of events) {
    if (event.type === "done") return event.message;
  }
  throw new ProviderError("the reply stream ended without a final message", { provider, retries: 0 });
}
