import { WeftError, type AssistantMessage, type ChatModel, type ChatRequest, type StreamEvent } from "@weft/sdk";
import type { Context } from "@restatedev/restate-sdk";
import { runOptionsOf, terminalIfFinal, type ModelRetryPolicy } from "./model-retry.js";

/**
 * The model with every call a journaled step: a call that completed is never made again, on this
 * worker or another after a crash; its reply comes from the journal. The reply's text reaches the
 * stream as one delta once the step has completed.
 */
export function journaledModel(ctx: Context, model: ChatModel, retry?: ModelRetryPolicy): ChatModel {
  let calls = 0;
  const runOptions = runOptionsOf<AssistantMessage>(retry);
  const call = (request: ChatRequest): Promise<AssistantMessage> =>
    ctx.run(
      `model call ${++calls}`,
      async () => {
        let reply: AssistantMessage | undefined;
        try {
          for await (const event of model.stream(request)) if (event.type === "done") reply = event.message;
        } catch (error) {
          throw terminalIfFinal(error);
        }
        if (!reply) throw new WeftError("PROVIDER_ERROR", `${model.provider}/${model.model}: the stream ended without a final message`);
        return reply;
      },
      runOptions,
    );
  return new Proxy(model, {
    get(target, property) {
      if (property === "chat") return call;
      if (property === "stream") {
        return async function* (request: ChatRequest): AsyncGenerator<StreamEvent> {
          const reply = await call(request);
          if (reply.content) yield { type: "text", delta: reply.content };
          yield { type: "done", message: reply };
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
