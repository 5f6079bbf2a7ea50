/** The results as Markdown tables, and the README section that shows the latest ones. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "—");
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : "—");
export const oneLine = (text) => String(text ?? "").split("\n").find((line) => line.trim()) ?? "";
/** weft's own rows (weft, weft-ai-sdk) and the floors are not peers. */
const isPeer = (framework) => !framework.startsWith("weft") && !framework.startsWith("floor");

/** The floors by HTTP client: the issue's goals are written against those on fetch; floor-http does their work on node:http. */
const FLOORS_ON = { fetch: ["floor", "floor-rpc"], "node:http": ["floor-http"] };

/**
 * A scenario's floor: the fastest of the floors, or of those on one HTTP client (`on`). The floors run
 * `mcp` and `full` (whose requests carry the skills catalog and the two local tools); `native` is held
 * against the `mcp` floor, the cost of the same two tool calls over MCP.
 */
export function floorRow(rows, scenario, on) {
  const floorScenario = scenario === "full" ? "full" : "mcp";
  const isFloor = (name) => (on ? FLOORS_ON[on].includes(name) : name.startsWith("floor"));
  const floors = rows.filter((row) => isFloor(row.framework) && row.scenario === floorScenario && row.ok);
  return floors.sort((a, b) => a.latency.p50 - b.latency.p50)[0];
}

/** The fastest peer's p50 and the lowest peer RSS per scenario (working peers only). */
function peerBests(rows) {
  const best = {};
  for (const row of rows) {
    if (!isPeer(row.framework) || !row.ok) continue;
    best[row.scenario] ??= { p50: Infinity, rss: Infinity, p50By: "", rssBy: "" };
    const b = best[row.scenario];
    if (row.latency.p50 < b.p50) Object.assign(b, { p50: row.latency.p50, p50By: row.framework });
    if (row.peakRssMb < b.rss) Object.assign(b, { rss: row.peakRssMb, rssBy: row.framework });
  }
  return best;
}

function runTable(results) {
  const rows = results.frameworks;
  const best = peerBests(rows);
  const lines = [
    "| framework | scenario | import ms | init ms | p50 ms | p95 ms | mean ms | CPU ms/run (p50) | correct | model calls/run | peak RSS MB | p50 / floor | p50 / fastest peer |",
    "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  ];
  const notes = [];
  for (const row of rows) {
    if (!row.latency) {
      notes.push(`- **${row.framework} / ${row.scenario}** did not run: ${oneLine(row.error ?? row.failures?.[0])}`);
      lines.push(`| ${row.framework} | ${row.scenario} | ${fixed(row.importMs, 0)} | ${fixed(row.initMs, 0)} | — | — | — | — | — | — | — | — | — |`);
      continue;
    }
    if (!row.ok) notes.push(`- **${row.framework} / ${row.scenario}** answered wrong: ${oneLine(row.failures?.[0])}`);
    const peer = best[row.scenario];
    const floor = floorRow(rows, row.scenario);
    lines.push(
      `| ${row.framework} | ${row.scenario} | ${fixed(row.importMs, 0)} | ${fixed(row.initMs, 0)} | ${fixed(row.latency.p50)} | ${fixed(row.latency.p95)} | ${fixed(row.latency.mean)} | ${fixed(row.cpu?.p50)} | ${row.correct}/${row.total} | ${fixed(row.requestsPerRun, 1)} | ${fixed(row.peakRssMb, 0)} | ${ratio(row.latency.p50, floor?.latency.p50)} | ${row.framework.startsWith("floor") ? "—" : ratio(row.latency.p50, peer?.p50)} |`,
    );
  }
  return { lines, notes };
}

function weftTargets(results) {
  const best = peerBests(results.frameworks);
  const lines = [
    "| weft scenario | p50 / fastest peer (goal ≤ 0.80×) | p50 / fetch floor (goal ≤ 1.05×, native ≤ 0.95×) | p50 / node:http floor | CPU / fetch floor's CPU | CPU / node:http floor's CPU | peak RSS / lowest peer (goal ≤ 1.00×) |",
    "|---|--:|--:|--:|--:|--:|--:|",
  ];
  for (const row of results.frameworks.filter((r) => r.framework === "weft")) {
    const peer = best[row.scenario];
    const floor = floorRow(results.frameworks, row.scenario, "fetch");
    const httpFloor = floorRow(results.frameworks, row.scenario, "node:http");
    if (!row.ok) {
      lines.push(`| ${row.scenario} | not run | not run | not run | not run | not run | not run |`);
      continue;
    }
    lines.push(
      `| ${row.scenario} | ${ratio(row.latency.p50, peer?.p50)} (${peer?.p50By || "no peer"}) | ${ratio(row.latency.p50, floor?.latency.p50)} | ${ratio(row.latency.p50, httpFloor?.latency.p50)} | ${ratio(row.cpu?.p50, floor?.cpu?.p50)} | ${ratio(row.cpu?.p50, httpFloor?.cpu?.p50)} | ${ratio(row.peakRssMb, peer?.rss)} (${peer?.rssBy || "no peer"}) |`,
    );
  }
  return lines;
}

function mcpParallelTable(mcp) {
  if (!mcp) return [];
  const row = (label, side) =>
    side?.ok
      ? `| ${label} | ${fixed(side.oneServerMs)} | ${fixed(side.threeServersMs)} | ${ratio(side.threeServersMs, side.oneServerMs)} |`
      : `| ${label} | not run: ${oneLine(side?.error ?? mcp.error)} | — | — |`;
  return [
    `| MCP start to tools listed (median of ${mcp.repeats}) | 1 server ms | 3 servers at once ms | 3 / 1 (weft goal ≤ 1.30×) |`,
    "|---|--:|--:|--:|",
    row("weft (kernel + @weft/plugin-mcp)", mcp.weft),
    row("floor (official MCP client only)", mcp.floor),
  ];
}

function phaseTable(phases) {
  if (!phases) return [];
  if (!phases.ok) return [`Phase split: not run: ${oneLine(phases.error)}`];
  const label = { model1: "model call 1 (tool calls)", tools: "tool round (2 MCP calls)", model2: "model call 2 (answer)", end: "after the last reply" };
  const lines = [
    `| phase, mcp scenario (median of ${phases.runs}, one process) | floor-http ms | weft ms | weft − floor ms | floor-http CPU ms | weft CPU ms | weft − floor CPU ms |`,
    "|---|--:|--:|--:|--:|--:|--:|",
  ];
  // Runs from before the CPU columns have none.
  const cpu = (side, phase) => phases[`${side}Cpu`]?.[phase];
  for (const [phase, text] of Object.entries(label)) {
    lines.push(
      `| ${text} | ${fixed(phases.floor[phase], 3)} | ${fixed(phases.weft[phase], 3)} | ${fixed(phases.weft[phase] - phases.floor[phase], 3)} | ${fixed(cpu("floor", phase), 3)} | ${fixed(cpu("weft", phase), 3)} | ${fixed(cpu("weft", phase) - cpu("floor", phase), 3)} |`,
    );
  }
  lines.push(`| whole run | ${fixed(phases.totals.floor, 3)} | ${fixed(phases.totals.weft, 3)} | ${ratio(phases.totals.weft, phases.totals.floor)} | | | |`);
  return lines;
}

function scaleTable(scale) {
  if (!scale) return [];
  if (!scale.dimensions) return [`Scale rows: not run: ${oneLine(scale.error)}`];
  const lines = [
    `| scale row (weft mcp vs floor-rpc and floor-http, in turn, median of ${scale.runs}) | n | floor-rpc ms | weft ms | weft / floor-rpc | floor-rpc CPU ms | weft CPU ms | CPU ratio | floor-http CPU ms | CPU ratio to floor-http |`,
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  ];
  for (const dimension of scale.dimensions) {
    for (const row of dimension.rows) {
      lines.push(
        row.error
          ? `| ${dimension.label} | ${row.n} | not run: ${oneLine(row.error)} | — | — | — | — | — | — | — |`
          : `| ${dimension.label} | ${row.n} | ${fixed(row.floorMs)} | ${fixed(row.weftMs)} | ${ratio(row.weftMs, row.floorMs)} | ${fixed(row.floorCpuMs)} | ${fixed(row.weftCpuMs)} | ${ratio(row.weftCpuMs, row.floorCpuMs)} | ${fixed(row.httpFloorCpuMs)} | ${ratio(row.weftCpuMs, row.httpFloorCpuMs)} |`,
      );
    }
  }
  return lines;
}

function parseTable(parse) {
  if (!parse) return [];
  if (!parse.ok && !parse.rows?.length) return [`Streaming parse: not run: ${oneLine(parse.error)}`];
  const lines = [`| parser (${fixed(parse.megabytes, 0)} MB of recorded stream) | format | MB/s | events |`, "|---|---|--:|--:|"];
  for (const row of parse.rows) {
    lines.push(row.error ? `| ${row.parser} | ${row.format} | not run: ${oneLine(row.error)} | — |` : `| ${row.parser} | ${row.format} | ${fixed(row.mbPerSecond, 1)} | ${row.events} |`);
  }
  return lines;
}

export function renderTable(results) {
  const { lines, notes } = runTable(results);
  const m = results.machine;
  const out = [
    `Measured ${results.date.slice(0, 10)} on ${m.cpu} (${m.cores} cores, ${m.memoryGb} GB${m.loadAverage !== undefined ? `, load average ${m.loadAverage} at the start` : ""}), Node ${m.node}, weft at ${results.weftCommit ?? "unknown"}; ${results.method.warmups} warm-ups then ${results.method.runs} timed runs per row in ${results.method.rounds ?? 1} interleaved rounds.`,
  ];
  if (results.frameworks.length) out.push("", ...lines);
  if (notes.length) out.push("", ...notes);
  if (results.frameworks.some((row) => row.framework === "weft")) out.push("", ...weftTargets(results));
  for (const section of [mcpParallelTable(results.mcpParallel), phaseTable(results.phases), scaleTable(results.scale), parseTable(results.parse)]) {
    if (section.length) out.push("", ...section);
  }
  return out.join("\n");
}

const START = "<!-- results:start -->";
const END = "<!-- results:end -->";

/** Replaces the README's results section (between the markers) with the latest table. */
export function updateReadme(file, table) {
  if (!existsSync(file)) return;
  const text = readFileSync(file, "utf8");
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return;
  writeFileSync(file, `${text.slice(0, start + START.length)}\n${table}\n${text.slice(end)}`);
}
