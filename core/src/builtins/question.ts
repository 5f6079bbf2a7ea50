import { defineTool, errorResult, Type } from "@weft/sdk";
import type { Tool } from "@weft/sdk";

const input = Type.Object({
  question: Type.String({ description: "The question, complete enough to answer without context" }),
  options: Type.Optional(Type.Array(Type.String(), { description: "Suggested answers; the user may still answer freely" })),
});

/** What the tool answers while it waits; the loop hands the request to the host instead of the model. */
const QUESTION_WAITING = "waiting for the user's answer";

/**
 * `question`: asks the user through the host. The first run returns a `pending` question; the host's
 * answer re-runs it with `ctx.answer`, and the answer text is the result.
 */
export function questionTool(): Tool {
  return defineTool({
    name: "question",
    description:
      "Ask the user a question and wait for the answer. Use it when you need a decision or information only the user has; do not ask for what your other tools can find out.",
    input,
    source: { kind: "builtin", id: "@weft/core" },
    execute: ({ question, options }, ctx) => {
      if (!ctx.answer) {
        const message = options?.length ? `${question}\n${options.map((option, index) => `${index + 1}. ${option}`).join("\n")}` : question;
        return {
          output: QUESTION_WAITING,
          pending: { kind: "question", message, schema: { type: "string", ...(options?.length ? { examples: options } : {}) } },
        };
      }
      if (ctx.answer.action !== "accept") return errorResult("the user declined to answer");
      const { content } = ctx.answer;
      const text = typeof content === "string" ? content : content === undefined ? "" : JSON.stringify(content);
      return { output: text || "(the user gave an empty answer)" };
    },
  }) as Tool;
}
