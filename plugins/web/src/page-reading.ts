// What reading a page runs: the guarded fetch (node:net, node:http), the bounded read, the HTML
// conversion's worker and the chunker. The tools import it on their first call, so a process that only
// lists them (`weft tools`, a toolkit handing schemas to a model) loads their names and schemas alone.
export { fetchPage, parseWebUrl, readCapped } from "./fetch-page.js";
export { chunkHtml } from "./html-chunks.js";
export { renderPage } from "./page-element.js";
