import { LineSplitter } from "./line-splitter.js";

/** One server-sent event. `data` joins the event's `data:` lines with LF. */
export interface SseEvent {
  /** The `event:` field; absent for the default `message` type. */
  event?: string;
  data: string;
  /** The last `id:` seen on the stream (it carries over to later events, as the SSE spec says). */
  id?: string;
}

const SPACE = 32;

/**
 * Incremental SSE parser: feed it byte or text chunks as they arrive, get whole events back.
 * Comment lines (`: OPENROUTER PROCESSING`) are skipped, LF, CRLF and CR line endings are accepted,
 * multi-line `data:` is joined with LF. `retry:` is ignored (reconnection is the caller's business).
 *
 * One deliberate leniency: at `end()` an event that lacks its closing blank line is still delivered,
 * because real servers end streams with `data: [DONE]\n` and nothing after it.
 */
export class SseParser {
  readonly #lines: LineSplitter;
  /** The events completed by the chunk being read; undefined while there are none. */
  #events: SseEvent[] | undefined;
  #data = "";
  #hasData = false;
  #event: string | undefined;
  #id: string | undefined;

  constructor() {
    this.#lines = new LineSplitter((source, start, end) => this.#line(source, start, end));
  }

  /** Feeds a chunk and returns the events it completed (often none). */
  push(chunk: string | Uint8Array): readonly SseEvent[] {
    this.#lines.push(chunk);
    return this.#take();
  }

  /** Ends the stream and returns what was left: a last event without its blank line. */
  end(): readonly SseEvent[] {
    this.#lines.end();
    this.#dispatch();
    return this.#take();
  }

  #take(): readonly SseEvent[] {
    const events = this.#events ?? EMPTY;
    this.#events = undefined;
    return events;
  }

  #line(source: string, start: number, end: number): void {
    if (start === end) {
      this.#dispatch();
      return;
    }
    // The line nearly every event is made of, `data:`, read without searching for its colon.
    if (isDataField(source, start)) {
      const valueStart = source.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5;
      const value = source.slice(valueStart, end);
      this.#data = this.#hasData ? `${this.#data}\n${value}` : value;
      this.#hasData = true;
      return;
    }
    const colon = source.indexOf(":", start);
    if (colon === start) return; // a comment
    let fieldEnd = end;
    let valueStart = end;
    if (colon !== -1 && colon < end) {
      fieldEnd = colon;
      valueStart = colon + 1 < end && source.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1;
    }
    const length = fieldEnd - start;
    // Field names compared by length and characters, without slicing: this runs once a line.
    if (length === 4 && source.startsWith("data", start)) {
      const value = source.slice(valueStart, end);
      this.#data = this.#hasData ? `${this.#data}\n${value}` : value;
      this.#hasData = true;
    } else if (length === 5 && source.startsWith("event", start)) {
      this.#event = source.slice(valueStart, end);
    } else if (length === 2 && source.startsWith("id", start)) {
      const value = source.slice(valueStart, end);
      if (!value.includes("\0")) this.#id = value;
    }
  }

  #dispatch(): void {
    if (this.#hasData) {
      const event: SseEvent = { data: this.#data };
      if (this.#event) event.event = this.#event;
      if (this.#id) event.id = this.#id;
      // A chunk mostly completes one event: a list made for it holds one, where `[]` and a push
      // reserve room for 17 (V8's first growth), which the collector then has to clear.
      if (this.#events) this.#events.push(event);
      else this.#events = [event];
    }
    this.#data = "";
    this.#hasData = false;
    this.#event = undefined;
  }
}

const EMPTY: readonly SseEvent[] = Object.freeze([]);

/** Whether the line at `start` begins with `data:`: character codes, which V8 compares fastest. */
function isDataField(source: string, start: number): boolean {
  return (
    source.charCodeAt(start) === 100 &&
    source.charCodeAt(start + 1) === 97 &&
    source.charCodeAt(start + 2) === 116 &&
    source.charCodeAt(start + 3) === 97 &&
    source.charCodeAt(start + 4) === 58
  );
}

/** The events of a byte stream, as they complete. */
export async function* sseEvents(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  const parser = new SseParser();
  // A loop, not `yield*` over the arrays: that wraps each in an async iterator, twice the cost an event.
  for await (const chunk of chunks) for (const event of parser.push(chunk)) yield event;
  for (const event of parser.end()) yield event;
}
