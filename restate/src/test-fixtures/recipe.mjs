// The agent the Restate tests run: the same recipe in-process and on Restate.
// Its model is scripted by the transcript: for "refund N" it calls record(N) then slow(N) and then
// answers; for "approve N" it calls approval(N) (which suspends until answered); for "fail S" the model
// call fails with an HTTP S from the provider (given ProviderError); for "plan N" it writes its todo
// list with todowrite (given todowriteTool); otherwise it echoes.
// With logDeltas, every text.delta feedback event is logged ("delta <text>"); with logEvents, every
// feedback event's type ("event <type>"); with logLifecycle, each build and close of the parts.
export function recipeParts({ createKernel, defineTool, scriptedModel, log, hang, hangWhat, worker = "in-process", ProviderError, todowriteTool, logDeltas = false, logEvents = false, logLifecycle = false }) {
  const kernel = createKernel();
  if (logLifecycle) log("parts built");
  if (logDeltas) kernel.hooks.feedback.tap((event) => event.type === "text.delta" && log(`delta ${event.delta}`));
  if (logEvents) kernel.hooks.feedback.tap((event) => log(`event ${event.type}`));
  const record = defineTool({
    name: "record",
    description: "Record a refund",
    input: { type: "object", properties: { order: { type: "number" } }, required: ["order"] },
    execute: async ({ order }, ctx) => {
      log(`record ${order} ${ctx.idempotencyKey} ${worker}`);
      return { output: `recorded ${order}` };
    },
  });
  const slow = defineTool({
    name: "slow",
    description: "A slow external call",
    input: { type: "object", properties: { order: { type: "number" } }, required: ["order"] },
    execute: async ({ order }, ctx) => {
      if (hangWhat === "tool") await hang("tool");
      log(`slow ${order} ${ctx.idempotencyKey}`);
      return { output: `slow done ${order}` };
    },
  });
  const approval = defineTool({
    name: "approval",
    description: "Ask for approval",
    input: { type: "object", properties: { order: { type: "number" } }, required: ["order"] },
    execute: async ({ order }, ctx) => {
      if (!ctx.answer) return { output: "waiting", pending: { kind: "approval", message: `Refund order ${order}?` } };
      log(`approved ${order} ${ctx.answer.action}`);
      return { output: `approval: ${ctx.answer.action}` };
    },
  });
  const reply = (request) => {
    const messages = request.messages;
    const last = messages[messages.length - 1];
    const user = [...messages].reverse().find((message) => message.role === "user")?.content ?? "";
    const order = Number(user.split(" ")[1]);
    if (last.role === "user" && user.startsWith("fail") && ProviderError) {
      log(`model failing ${order}`);
      return new ProviderError(`HTTP ${order}: the model is unavailable`, { provider: "scripted", status: order, retries: 0 });
    }
    if (last.role === "user") {
      log(`model call 1 ${user}`);
      if (user.startsWith("refund")) return { toolCalls: [{ id: `rec-${order}`, name: "record", arguments: { order } }, { id: `slow-${order}`, name: "slow", arguments: { order } }] };
      if (user.startsWith("approve")) return { toolCalls: [{ id: `ok-${order}`, name: "approval", arguments: { order } }] };
      if (user.startsWith("plan")) return { toolCalls: [{ id: `plan-${order}`, name: "todowrite", arguments: { todos: [{ content: `refund order ${order}`, status: "in_progress" }] } }] };
      return `echo ${user}`;
    }
    if (hangWhat === "model") {
      log(`hanging model ${worker}`);
      return { delayMs: 3_600_000, text: "never" };
    }
    log(`model call 2 ${user}`);
    return `done ${user}: ${messages.filter((message) => message.role === "tool").slice(-2).map((message) => message.content).join(", ")}`;
  };
  const model = scriptedModel(Array.from({ length: 50 }, () => reply));
  if (hangWhat === "stream") {
    const stream = model.stream.bind(model);
    model.stream = async function* (request) {
      const afterTools = request.messages[request.messages.length - 1]?.role === "tool";
      for await (const event of stream(request)) {
        yield event;
        if (afterTools && event.type === "text") await hang("stream");
      }
    };
  }
  return {
    model,
    kernel,
    // The session's todos service holds the list; the fallback serves calls made outside a session.
    session: { prompt: "You handle refunds.", tools: [record, slow, approval, ...(todowriteTool ? [todowriteTool(() => ({ get: () => [], set: () => {} }))] : [])] },
    settings: { parallelToolCalls: false },
    close: () => {
      if (logLifecycle) log("parts closed");
      return kernel.close();
    },
  };
}
