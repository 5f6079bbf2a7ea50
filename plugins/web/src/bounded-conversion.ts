import type { ConvertedHtml, PageFormat } from "./html-conversion.js";

export interface ConversionLimits {
  /** Past this the worker is stopped and the page is what was converted so far. */
  budgetMs: number;
  /** Elements nested deeper lose their tags; `MAX_HTML_DEPTH` by default. */
  maxDepth?: number;
}

export interface BoundedConversion extends ConvertedHtml {
  /** Why the conversion stopped before the end, for the model to read; absent when it finished. */
  stopped?: string;
}

const WORKER = new URL("./html-worker.js", import.meta.url);

type WorkerMessage = ({ kind: "chunk" } & ConvertedHtml) | { kind: "done" };

/**
 * HTML from the network converted in a worker thread: nesting limited, the document converted in
 * chunks, and the worker terminated when the budget runs out or the call is aborted, so no page can
 * hold the event loop. Past the budget it answers the chunks converted so far and says why it stopped.
 */
export async function convertHtmlBounded(html: string, pageUrl: string, format: Exclude<PageFormat, "html">, limits: ConversionLimits, signal: AbortSignal): Promise<BoundedConversion> {
  // Threads load with the first page converted, not with the plugin.
  const { Worker } = await import("node:worker_threads");
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const worker = new Worker(WORKER, { workerData: { html, pageUrl, format, maxDepth: limits.maxDepth } });
    const texts: string[] = [];
    const links = new Set<string>();
    let title: string | undefined;
    const settle = (stopped?: string) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      void worker.terminate();
      const text = texts.join("\n\n").replace(/\n{3,}/g, "\n\n").trim();
      resolve({ title, text, links: [...links], ...(stopped === undefined ? {} : { stopped }) });
    };
    const onAbort = () => {
      clearTimeout(timer);
      void worker.terminate();
      reject(signal.reason);
    };
    const timer = setTimeout(
      () => settle(`conversion stopped after ${limits.budgetMs} ms: the page is too large or too complex to convert in time; the text above is what was converted`),
      limits.budgetMs,
    );
    signal.addEventListener("abort", onAbort, { once: true });
    worker.on("message", (message: WorkerMessage) => {
      if (message.kind === "chunk") {
        if (message.text !== "") texts.push(message.text);
        title ??= message.title;
        for (const link of message.links) links.add(link);
      } else settle();
    });
    worker.on("error", (error) => settle(`conversion failed: ${error.message}`));
  });
}
