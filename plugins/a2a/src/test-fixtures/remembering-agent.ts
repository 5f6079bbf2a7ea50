import { TaskState } from "@a2a-js/sdk";
import type { Turn } from "./agent-server.js";

/**
 * An agent that remembers what was said in each context ("So far: …"), and asks how many when asked
 * to "book a table", finishing that task with the answer.
 */
export function rememberingAgent(): (turn: Turn) => Promise<void> {
  const said = new Map<string, string[]>();
  return async (turn) => {
    if (turn.task) {
      turn.start();
      turn.artifact("answer", `Booked for ${turn.text}`);
      turn.status(TaskState.TASK_STATE_COMPLETED);
      return;
    }
    if (turn.text === "book a table") {
      turn.start();
      turn.status(TaskState.TASK_STATE_INPUT_REQUIRED, "For how many?");
      return;
    }
    const heard = [...(said.get(turn.contextId) ?? []), turn.text];
    said.set(turn.contextId, heard);
    turn.reply(`So far: ${heard.join(", ")}`);
  };
}
