import { describe, expect, it } from "vitest";
import { parseConfigDocument } from "./config-yaml.js";
import { parseProjectConfig } from "./project-config.js";

const parse = (text: string) => () => parseProjectConfig(parseConfigDocument("/app/weft.config.yaml", text, {}));

/** Each way a key the project reads can be wrong, and the error it gives: its words, line, column and option. */
const REFUSED: [config: string, error: string][] = [
  ["- model: a/b\n", "1:1: expected a map of options at the top level"],
  ["model: 42\n", "1:8 (option model): expected a non-empty string"],
  ["model: sonnet\n", '1:8 (option model): expected provider/model (e.g. anthropic/claude-sonnet-4-5), got "sonnet"'],
  ["instructions: ''\n", "1:15 (option instructions): expected a non-empty string"],
  ["effort: [high]\n", '1:9 (option effort): expected one of off, low, medium, high, max, got ["high"]'],
  ["plugins: files\n", "1:10 (option plugins): expected a list of plugin names or one-key maps of name to options"],
  ["plugins:\n  - ''\n", "2:5 (option plugins[0]): expected a plugin name or a one-key map of name to options (e.g. - files: { root: ./workspace })"],
  ["plugins:\n  - { files: {}, web: {} }\n", "2:5 (option plugins[0]): expected a plugin name or a one-key map of name to options (e.g. - files: { root: ./workspace })"],
  ["plugins:\n  - files: ./workspace\n", "2:12 (option plugins[0].files): plugin options must be a map"],
  ["mcp: 3\n", "1:6 (option mcp): expected a path to an mcp.json file or an inline map of servers"],
  ["skills: { a: 1 }\n", "1:9 (option skills): expected a list of strings"],
  ["disableTools: [file_read, 3]\n", "1:27 (option disableTools[1]): expected a non-empty string"],
  ["maxIterations: -1\n", "1:16 (option maxIterations): expected a whole number (0 for no limit)"],
  ["deadline: 1.5\n", "1:11 (option deadline): expected a whole number (milliseconds)"],
  ["agents: { card: x }\n", "1:9 (option agents): expected a list of agents ({ card: <agent card URL> })"],
  ["agents:\n  - https://a.example\n", "2:5 (option agents[0]): expected { card: <agent card URL>, name?, headers?, timeout? } or { name, description, local: { instructions } }"],
  ["agents:\n  - name: remote\n", "2:5 (option agents[0].card): expected a non-empty string"],
  ["agents:\n  - { name: g, description: d, local: { instructions: i }, extra: 1 }\n", "2:60 (option agents[0].extra): is not an option of a local agent (known: name, description, local)"],
  ["agents:\n  - { name: g, local: { instructions: i } }\n", "2:5 (option agents[0].description): expected a non-empty string"],
  ["agents:\n  - { name: g, description: d, local: yes }\n", "2:39 (option agents[0].local): expected { instructions, model?, tools?: { only | exclude }, maxIterations? }"],
  ["agents:\n  - { name: g, description: d, local: { instructions: i, model: m } }\n", '2:65 (option agents[0].local.model): expected provider/model (e.g. anthropic/claude-sonnet-4-5), got "m"'],
  ["agents:\n  - { name: g, description: d, local: { instructions: i, maxIterations: x } }\n", "2:73 (option agents[0].local.maxIterations): expected a whole number (0 for no limit)"],
  ["agents:\n  - { name: g, description: d, local: { instructions: i, tools: [a] } }\n", "2:65 (option agents[0].local.tools): expected { only: [<tool>, ...] } or { exclude: [<tool>, ...] }"],
  ["agents:\n  - { name: g, description: d, local: { instructions: i, tools: { all: [a] } } }\n", "2:67 (option agents[0].local.tools.all): is not an option of a local agent (known: only, exclude)"],
  ["agents:\n  - { name: g, description: d, local: { tools: { only: a } } }\n", "2:39 (option agents[0].local.instructions): expected a non-empty string"],
  ["sessions: sqlite\n", "1:11 (option sessions): expected { store: memory | sqlite | postgres, url: <database file or postgres:// URL> }"],
  ["sessions: { store: memory, path: x }\n", "1:11 (option sessions): expected { store: memory | sqlite | postgres, url: <database file or postgres:// URL> }"],
  ["sessions: { store: redis }\n", "1:20 (option sessions.store): expected { store: memory | sqlite | postgres, url: <database file or postgres:// URL> }"],
  ["sessions: { url: ./s.db }\n", "1:11 (option sessions.store): expected { store: memory | sqlite | postgres, url: <database file or postgres:// URL> }"],
  ["sessions: { store: sqlite, url: 7 }\n", "1:33 (option sessions.url): expected a non-empty string"],
  ["sessions: { store: postgres }\n", "1:11 (option sessions): the postgres store needs a url (expected { store: memory | sqlite | postgres, url: <database file or postgres:// URL> })"],
];

describe("the keys the project reads, checked with the schemas weft config schema prints", () => {
  it.each(REFUSED)("refuses %j naming the line, the option and the problem", (config, error) => {
    expect(parse(config)).toThrow(`/app/weft.config.yaml:${error}`);
  });

  it("reads a one-string list as a list, plugin entries with where they were written, and local agents' tool lists", () => {
    const config = parseProjectConfig(
      parseConfigDocument(
        "/app/weft.config.yaml",
        "skills: ./skills\ndisableTools: shell\nplugins:\n  - web\n  - files: { root: . }\n  - shell:\nagents:\n  - { name: g, description: d, local: { instructions: i, tools: { only: file_read } } }\n  - card: https://a.example\nsessions: { store: memory }\n",
        {},
      ),
    );
    expect(config.skills).toEqual(["./skills"]);
    expect(config.disableTools).toEqual(["shell"]);
    expect(config.plugins).toEqual([
      { name: "web", options: undefined, path: ["plugins", 0] },
      { name: "files", options: { root: "." }, path: ["plugins", 1, "files"] },
      { name: "shell", options: undefined, path: ["plugins", 2, "shell"] },
    ]);
    expect(config.agents).toEqual([{ name: "g", description: "d", local: { instructions: "i", tools: { only: ["file_read"] } } }]);
    expect(config.keys).toEqual({ skills: ["./skills"], agents: [{ card: "https://a.example" }] });
    expect(config.sessions).toEqual({ store: "memory" });
  });
});
