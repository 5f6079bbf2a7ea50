/**
 * Streaming-parse micro-benchmark: MB/s through weft's SSE and NDJSON parsers and through peers, over
 * the recorded provider streams of fixtures/providers repeated to 50 MB and fed in 16 KiB byte chunks,
 * as they come off a socket. SSE is framing only (events out, no JSON); NDJSON parses every line.
 * Each parser runs 5 times; the best pass counts. Event counts must agree between parsers of a format.
 *
 *   node parse-bench.mjs <out.json> '{"fixtures": "<dir>"}'
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { NdjsonParser, SseParser } from "@weft/sdk";
import { createParser } from "eventsource-parser";
import { EventSourceParserStream } from "eventsource-parser/stream";

const [outFile, configText] = process.argv.slice(2);
const { fixtures } = JSON.parse(configText);
const TARGET_BYTES = 50 * 2 ** 20;
const CHUNK_BYTES = 16 * 2 ** 10;
const PASSES = 5;

/** Every recorded file of a kind, each ending with a newline, repeated to TARGET_BYTES. */
function recording(match) {
  const parts = [];
  for (const dir of readdirSync(fixtures, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    for (const file of readdirSync(join(fixtures, dir.name)).filter(match).sort()) {
      const text = readFileSync(join(fixtures, dir.name, file), "utf8");
      parts.push(text.endsWith("\n\n") ? text : text.endsWith("\n") ? `${text}\n` : `${text}\n\n`);
    }
  }
  const unit = Buffer.from(parts.join(""));
  const bytes = Buffer.alloc(Math.floor(TARGET_BYTES / unit.length) * unit.length);
  for (let offset = 0; offset < bytes.length; offset += unit.length) unit.copy(bytes, offset);
  const chunks = [];
  for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) chunks.push(bytes.subarray(offset, offset + CHUNK_BYTES));
  return { bytes: bytes.length, chunks };
}

const SSE_PARSERS = {
  "weft SseParser": (chunks) => {
    const parser = new SseParser();
    let events = 0;
    for (const chunk of chunks) events += parser.push(chunk).length;
    return events + parser.end().length;
  },
  "eventsource-parser (feed)": (chunks) => {
    let events = 0;
    const parser = createParser({ onEvent: () => events++ });
    const decoder = new TextDecoder();
    for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
    parser.reset({ consume: true });
    return events;
  },
  "eventsource-parser/stream (as the AI SDK uses it)": async (chunks) => {
    let events = 0;
    const stream = ReadableStream.from(chunks).pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
    for await (const _event of stream) events++;
    return events;
  },
};

const NDJSON_PARSERS = {
  "weft NdjsonParser": (chunks) => {
    const parser = new NdjsonParser();
    let values = 0;
    for (const chunk of chunks) values += parser.push(chunk).length;
    return values + parser.end().length;
  },
  "node:readline + JSON.parse": async (chunks) => {
    let values = 0;
    for await (const line of createInterface({ input: Readable.from(chunks), crlfDelay: Infinity })) {
      if (line.trim()) {
        JSON.parse(line);
        values++;
      }
    }
    return values;
  },
};

async function measure(format, parsers, data) {
  const rows = [];
  for (const [parser, parse] of Object.entries(parsers)) {
    try {
      let best = Infinity;
      let events = 0;
      for (let pass = 0; pass < PASSES; pass++) {
        const started = performance.now();
        events = await parse(data.chunks);
        best = Math.min(best, performance.now() - started);
      }
      rows.push({ parser, format, events, mbPerSecond: data.bytes / 2 ** 20 / (best / 1000), bestMs: best });
    } catch (error) {
      rows.push({ parser, format, error: String(error?.stack ?? error) });
    }
  }
  const counts = new Set(rows.filter((row) => !row.error).map((row) => row.events));
  return { rows, agree: counts.size <= 1 };
}

const result = { ok: false, rows: [] };
try {
  const sse = recording((file) => file.endsWith(".sse"));
  const ndjson = recording((file) => file.endsWith(".chunks.txt") || file.endsWith(".ndjson"));
  result.megabytes = sse.bytes / 2 ** 20;
  result.chunkBytes = CHUNK_BYTES;
  const sseRows = await measure("SSE", SSE_PARSERS, sse);
  const ndjsonRows = await measure("NDJSON", NDJSON_PARSERS, ndjson);
  result.rows = [...sseRows.rows, ...ndjsonRows.rows];
  result.countsAgree = sseRows.agree && ndjsonRows.agree;
  result.ok = result.countsAgree && result.rows.every((row) => !row.error);
  if (!result.countsAgree) result.error = "parsers disagree on the number of events";
} catch (error) {
  result.error = String(error?.stack ?? error);
}
writeFileSync(outFile, JSON.stringify(result));
