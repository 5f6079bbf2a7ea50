import type { Message } from "@weft/sdk";

/**
 * The provider-neutral rules that make a transcript acceptable to every provider plugin's wire format
 * (core cannot import the providers): Anthropic (system outside `messages`, first turn from the user,
 * roles alternating once same-role messages and tool results are merged into user turns), OpenAI-style
 * chat (each tool message right after the assistant message that called it, every call answered) and
 * Ollama. Returns the broken rules, empty when there are none.
 */
export function wireProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  messages.forEach((message, index) => {
    if (message.role === "system" && index !== 0) problems.push(`system message at ${index}: only the first may be one`);
  });
  const body = messages[0]?.role === "system" ? messages.slice(1) : [...messages];
  const first = body[0];
  if (first && first.role !== "user") problems.push(`the first message after the system prompt is ${first.role}, not user`);
  const answered = new Set<string>();
  for (const [index, message] of body.entries()) {
    if (message.role === "tool") {
      // The tool results of one call batch follow their assistant message without anything between.
      let owner = index - 1;
      while (owner >= 0 && body[owner]?.role === "tool") owner--;
      const caller = body[owner];
      if (caller?.role !== "assistant" || !caller.toolCalls?.some((call) => call.id === message.toolCallId)) {
        problems.push(`orphan tool result ${message.toolCallId} at ${index}`);
      }
      if (answered.has(message.toolCallId)) problems.push(`tool call ${message.toolCallId} answered twice`);
      answered.add(message.toolCallId);
    }
    if (message.role === "assistant" && message.toolCalls?.length) {
      const results = new Set<string>();
      for (let next = index + 1; next < body.length && body[next]?.role === "tool"; next++) results.add((body[next] as { toolCallId: string }).toolCallId);
      for (const call of message.toolCalls) if (!results.has(call.id)) problems.push(`tool call ${call.id} at ${index} has no result right after it`);
    }
  }
  // Anthropic: tool results travel in user turns; after merging same-role neighbours roles alternate.
  const merged: string[] = [];
  for (const message of body) {
    const role = message.role === "tool" ? "user" : message.role;
    if (merged[merged.length - 1] !== role) merged.push(role);
  }
  merged.forEach((role, index) => {
    if (role !== (index % 2 === 0 ? "user" : "assistant")) problems.push(`roles do not alternate after merging: ${merged.join(",")}`);
  });
  return [...new Set(problems)];
}
