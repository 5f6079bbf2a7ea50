// The conversion worker: remote HTML is parsed here, off the event loop, where the caller's deadline
// can terminate it. Plain JavaScript (see html-conversion.js).
import { parentPort, workerData } from "node:worker_threads";
import { chunkHtml } from "./html-chunks.js";
import { convertHtml } from "./html-conversion.js";

/**
 * @typedef {object} ConversionJob
 * @property {string} html
 * @property {string} pageUrl
 * @property {"markdown" | "text"} format
 * @property {number} [maxDepth]
 */

/**
 * Every chunk is posted as soon as it is converted, so whatever was done when the worker is stopped
 * has reached the caller.
 * @param {ConversionJob} job
 */
function convert(job) {
  const { chunks } = chunkHtml(job.html, { maxDepth: job.maxDepth });
  for (const chunk of chunks) parentPort?.postMessage({ kind: "chunk", ...convertHtml(chunk, job.pageUrl, job.format) });
  parentPort?.postMessage({ kind: "done" });
}

convert(/** @type {ConversionJob} */ (workerData));
