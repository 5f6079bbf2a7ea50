import type { ElicitResult, InputRequiredResult } from "@modelcontextprotocol/client";
import { isRecord, type PendingAnswer, type PendingRequest } from "@weft/sdk";
import { elicitResult, questionOf, type ElicitParams } from "./elicitation-bridge.js";

/**
 * A multi-round-trip request of the 2026-07-28 protocol, between rounds: the server answered `tools/call`
 * with `input_required` (its questions, and an opaque `requestState`), and weft asks the host one question
 * at a time. Everything needed to send the retry is here, as plain JSON in the pending request's `data`:
 * the round is resumed by whichever process holds the session, over any connection to the server.
 */
export interface InputRound {
  /** The server's state for the retry, echoed back byte for byte. */
  requestState?: string;
  /** The question with the host now, then the ones not asked yet, in the server's order. */
  questions: { key: string; params: ElicitParams }[];
  /** The answers so far, by the server's keys. */
  responses: Record<string, ElicitResult>;
}

/** What a `pending` request of an input round carries in `data`. */
export interface RoundTicket {
  server: string;
  round: InputRound;
}

/** Whether a `tools/call` result is the 2026-07-28 `input_required` kind (as the SDK hands it back in manual mode). */
export function isInputRequired(result: unknown): result is InputRequiredResult {
  return isRecord(result) && result.resultType === "input_required";
}

/**
 * The round a server's `input_required` result opens, or why weft cannot take part in it: weft answers
 * elicitations only (it declares neither sampling nor roots), and only when the host can answer.
 */
export function openRound(result: InputRequiredResult, canAsk: boolean): InputRound | { problem: string } {
  const questions: InputRound["questions"] = [];
  for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
    if (request.method !== "elicitation/create") return { problem: `it asks for ${request.method}, which weft does not offer` };
    questions.push({ key, params: request.params });
  }
  if (questions.length > 0 && !canAsk) return { problem: `it asks "${questions[0]?.params.message}", and this host cannot answer questions` };
  return { ...(result.requestState === undefined ? {} : { requestState: result.requestState }), questions, responses: {} };
}

/** The pending request for the round's current question. */
export function roundRequest(server: string, round: InputRound): PendingRequest | undefined {
  const question = round.questions[0];
  if (!question) return undefined;
  const data: RoundTicket = { server, round };
  return { ...questionOf(question.params), data };
}

/**
 * The host's answer to the current question: the round with the next question, or (all asked, or one
 * refused: a refusal ends the host's part) the params the retry adds to the call.
 */
export function answerRound(round: InputRound, answer: PendingAnswer): InputRound | { inputResponses: Record<string, ElicitResult>; requestState?: string } {
  const [question, ...rest] = round.questions;
  const responses = question ? { ...round.responses, [question.key]: elicitResult(answer, question.params.mode) } : round.responses;
  if (rest.length > 0 && answer.action === "accept") return { ...round, questions: rest, responses };
  return { inputResponses: responses, ...(round.requestState === undefined ? {} : { requestState: round.requestState }) };
}

/** Whether a tool run answers a round's question (rather than a question held on a connection). */
export function isRoundAnswer(ctx: { answer?: PendingAnswer; pending?: PendingRequest }): boolean {
  const data = ctx.pending?.data;
  return ctx.answer !== undefined && isRecord(data) && typeof data.round === "object";
}
