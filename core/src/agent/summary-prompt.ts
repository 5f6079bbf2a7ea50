import type { ChatRequest, Message } from "@weft/sdk";

/** The first line of the user message that replaces the summarised turns. */
export const SUMMARY_HEADING = "Summary of the conversation so far:";

export const SUMMARY_INSTRUCTIONS = [
  "You summarise a conversation between a user and an AI assistant that uses tools, so that the assistant can carry on from your summary alone.",
  "Write these sections, each a short list:",
  "Goals: what the user asked for and every constraint they set, in their own words where it matters.",
  "Decisions: what was decided, and why when it matters.",
  "Files and resources: every file, path, URL or other resource read, created or changed, and what happened to it.",
  "Facts: what was learned from tool results (names, numbers, errors) that is still needed.",
  "Done so far, and open questions: what remains to do or is still unresolved.",
  "Leave out small talk and tool output that no longer matters. Write plain text without a preamble.",
].join("\n");

/** Marks where the oldest part of a transcript too long for one summary request was left out. */
const OMITTED_MARKER = "[... the oldest part of the conversation was left out here to fit the summary request ...]";

/** `maxChars`: the transcript is cut to its newest part so the summary request fits the model's window. */
export function summaryRequest(messages: readonly Message[], maxChars = Number.POSITIVE_INFINITY): ChatRequest {
  let transcript = renderTranscript(messages);
  if (transcript.length > maxChars) transcript = `${OMITTED_MARKER}\n${transcript.slice(transcript.length - maxChars)}`;
  return {
    messages: [
      { role: "system", content: SUMMARY_INSTRUCTIONS },
      { role: "user", content: `Summarise this conversation:\n\n<transcript>\n${transcript}\n</transcript>` },
    ],
  };
}

/** The transcript as plain text: the summariser reads it, it never calls the tools itself. */
function renderTranscript(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        parts.push(`[system]\n${message.content}`);
        break;
      case "user":
        parts.push(`[user]\n${message.content}`);
        break;
      case "assistant":
        if (message.content) parts.push(`[assistant]\n${message.content}`);
        for (const call of message.toolCalls ?? []) parts.push(`[assistant called ${call.name}]\n${JSON.stringify(call.arguments)}`);
        break;
      case "tool":
        parts.push(`[${message.toolName} ${message.isError ? "failed" : "returned"}]\n${message.content}`);
        break;
    }
  }
  return parts.join("\n\n");
}
