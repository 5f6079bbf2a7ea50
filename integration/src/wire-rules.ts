/**
 * What each provider's API refuses, checked on a recorded request body (the JSON a provider plugin
 * actually sent). Each returns the broken rules, empty when the body is acceptable.
 */

type Json = Record<string, any>;

/**
 * Anthropic Messages: system only as the top-level field, never a role inside `messages`; the first
 * message from the user; roles alternating; every `tool_result` answering a `tool_use` of the
 * assistant message right before it, ahead of any other block of its user message; every `tool_use`
 * answered in the user message right after it; no empty messages or text blocks.
 */
export function anthropicWireProblems(body: Json): string[] {
  const problems: string[] = [];
  const messages: Json[] = body.messages ?? [];
  if (body.system !== undefined && !Array.isArray(body.system)) problems.push("system is not an array of blocks");
  if (messages[0]?.role !== "user") problems.push(`the first message is ${messages[0]?.role}, not user`);
  messages.forEach((message, index) => {
    const where = `messages[${index}]`;
    if (message.role !== "user" && message.role !== "assistant") problems.push(`${where} has role ${message.role}`);
    if (index > 0 && messages[index - 1]!.role === message.role) problems.push(`${where} repeats the role ${message.role}`);
    const blocks: Json[] = Array.isArray(message.content) ? message.content : [];
    if (blocks.length === 0) problems.push(`${where} has no content`);
    for (const block of blocks) if (block.type === "text" && !block.text) problems.push(`${where} has an empty text block`);
    const calls = (list: Json | undefined) => new Set<string>((list?.content ?? []).filter((block: Json) => block.type === "tool_use").map((block: Json) => block.id));
    const results = blocks.filter((block) => block.type === "tool_result");
    if (results.length > 0) {
      const asked = message.role === "user" && messages[index - 1]?.role === "assistant" ? calls(messages[index - 1]) : new Set<string>();
      for (const result of results) if (!asked.has(result.tool_use_id)) problems.push(`${where}: tool_result ${result.tool_use_id} answers no tool_use of the message before`);
      const firstOther = blocks.findIndex((block) => block.type !== "tool_result");
      if (firstOther !== -1 && firstOther < blocks.lastIndexOf(results.at(-1)!)) problems.push(`${where}: a tool_result comes after another block`);
    }
    for (const id of calls(message)) {
      const answers: Json[] = messages[index + 1]?.content ?? [];
      if (!answers.some((block) => block.type === "tool_result" && block.tool_use_id === id)) problems.push(`${where}: tool_use ${id} is not answered in the next message`);
    }
  });
  return problems;
}

/**
 * Chat Completions: one system message, first; each `tool` message follows (through other tool
 * messages only) the assistant message holding its `tool_call_id`; every call answered once; tool-call
 * arguments a JSON object in a string.
 */
export function chatCompletionsWireProblems(body: Json): string[] {
  const problems: string[] = [];
  const messages: Json[] = body.messages ?? [];
  const answered = new Set<string>();
  messages.forEach((message, index) => {
    const where = `messages[${index}]`;
    if (message.role === "system" && index !== 0) problems.push(`${where}: a system message after the first`);
    if (message.role === "tool") {
      const caller = callerOf(messages, index);
      if (!caller?.tool_calls?.some((call: Json) => call.id === message.tool_call_id)) problems.push(`${where}: orphan tool message ${message.tool_call_id}`);
      if (answered.has(message.tool_call_id)) problems.push(`${where}: ${message.tool_call_id} answered twice`);
      answered.add(message.tool_call_id);
    }
    if (message.role === "assistant") {
      const following = toolRun(messages, index);
      for (const call of message.tool_calls ?? []) {
        if (call.type !== "function" || typeof call.function?.arguments !== "string" || !isObject(JSON.parse(call.function.arguments))) {
          problems.push(`${where}: tool call ${call.id} has no JSON object arguments string`);
        }
        if (!following.some((result) => result.tool_call_id === call.id)) problems.push(`${where}: tool call ${call.id} has no tool message after it`);
      }
    }
  });
  return problems;
}

/**
 * Ollama `/api/chat`: tool results pair with calls by order: the `tool` messages right after an
 * assistant message answer its `tool_calls` one for one, with the same `tool_name` (and the same id
 * when one is sent); arguments are objects.
 */
export function ollamaWireProblems(body: Json): string[] {
  const problems: string[] = [];
  const messages: Json[] = body.messages ?? [];
  messages.forEach((message, index) => {
    const where = `messages[${index}]`;
    if (message.role === "system" && index !== 0) problems.push(`${where}: a system message after the first`);
    if (message.role === "tool" && !callerOf(messages, index)?.tool_calls?.length) problems.push(`${where}: tool message with no calling assistant message before it`);
    if (message.role !== "assistant" || !message.tool_calls?.length) return;
    const results = toolRun(messages, index);
    const calls: Json[] = message.tool_calls;
    if (results.length !== calls.length) problems.push(`${where}: ${calls.length} tool calls, ${results.length} tool messages after them`);
    calls.forEach((call, position) => {
      if (!isObject(call.function?.arguments)) problems.push(`${where}: tool call ${position} has no object arguments`);
      const result = results[position];
      if (result && result.tool_name !== call.function?.name) problems.push(`${where}: tool message ${position} is for ${result.tool_name}, the call is ${call.function?.name}`);
      if (result?.tool_call_id !== undefined && result.tool_call_id !== call.id) problems.push(`${where}: tool message ${position} answers ${result.tool_call_id}, the call is ${call.id}`);
    });
  });
  return problems;
}

/** The tool messages right after `index`. */
function toolRun(messages: Json[], index: number): Json[] {
  const run: Json[] = [];
  for (let next = index + 1; messages[next]?.role === "tool"; next++) run.push(messages[next]!);
  return run;
}

/** The message before the run of tool messages that `index` belongs to. */
function callerOf(messages: Json[], index: number): Json | undefined {
  let owner = index - 1;
  while (owner >= 0 && messages[owner]!.role === "tool") owner--;
  const caller = messages[owner];
  return caller?.role === "assistant" ? caller : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
