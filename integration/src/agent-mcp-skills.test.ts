import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent, createToolkit, type Toolkit } from "@weft/core";
import { memoryLogger } from "@weft/sdk";
import { defined, startScriptedServer, waitForProcessExit, type ScriptedServer } from "@weft/sdk/testing";
import { chatCompletionsReply } from "./wire-replies.js";
import { chatCompletionsWireProblems } from "./wire-rules.js";

/** server-memory from the workspace's node_modules, run with this node (nothing is fetched). */
const MEMORY_SERVER = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url));

const PROMPT = "You keep track of the user's projects.";
const SKILL_BODY = [
  "# Memory keeper",
  "",
  'Store each fact with memory__create_entities: one entity per project, entityType "project", the facts as observations.',
  "Then check the graph with memory__read_graph before you answer.",
].join("\n");
const CATALOG = [
  "The skills below hold instructions for specific tasks. When a task matches a skill's description, call skill_load with its name before you start.",
  "<available_skills>",
  "<skill>",
  "<name>memory-keeper</name>",
  "<description>Remember facts about the user's projects in the knowledge graph</description>",
  "</skill>",
  "</available_skills>",
].join("\n");
const ENTITY = { name: "weft", entityType: "project", observations: ["ships 2.0 on Friday"] };

/** The processes this test process started that run `script`. */
async function childrenRunning(script: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      // The fields after the command name (which is in parentheses): state, then the parent's pid.
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const argv = (await readFile(`/proc/${entry}/cmdline`, "utf8")).split("\0");
      if (parent === process.pid && argv.includes(script)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

describe("an agent over a toolkit with an MCP server and a skills folder", () => {
  let server: ScriptedServer;
  let dir: string;
  let toolkit: Toolkit | undefined;

  beforeEach(async () => {
    server = await startScriptedServer();
    dir = await mkdtemp(path.join(tmpdir(), "weft-mcp-skills-"));
    const skill = path.join(dir, "skills", "memory-keeper");
    await mkdir(skill, { recursive: true });
    await writeFile(
      path.join(skill, "SKILL.md"),
      `---\nname: memory-keeper\ndescription: Remember facts about the user's projects in the knowledge graph\n---\n${SKILL_BODY}\n`,
    );
    await writeFile(path.join(skill, "entity-types.md"), "project, person, decision\n");
  });
  afterEach(async () => {
    await toolkit?.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("loads a skill, calls the MCP server's tools, answers, and leaves no server running", async () => {
    const memoryFile = path.join(dir, "memory.jsonl");
    toolkit = await createToolkit({
      baseDir: dir,
      mcpConfig: { mcpServers: { memory: { command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: memoryFile } } } },
      skillsDir: "./skills",
      builtins: false,
      // Loaded by name, as a weft.config.yaml would name it.
      plugins: [{ name: "openrouter", options: { compatible: { baseUrl: `${server.url}/v1` } } }],
      logger: memoryLogger(),
    });
    const [serverPid] = await childrenRunning(MEMORY_SERVER);
    expect(serverPid).toBeGreaterThan(0);
    expect(toolkit.mcpStatus()).toEqual([{ name: "memory", state: "connected", tools: 9, protocol: "2025-11-25" }]);

    server.reply(
      chatCompletionsReply({ toolCalls: [{ id: "call_1", name: "skill_load", arguments: { skill_name: "memory-keeper" } }], usage: { prompt: 900, output: 12 } }),
      chatCompletionsReply({ toolCalls: [{ id: "call_2", name: "memory__create_entities", arguments: { entities: [ENTITY] } }], usage: { prompt: 1000, output: 30 } }),
      chatCompletionsReply({ text: "Saved. Checking.", toolCalls: [{ id: "call_3", name: "memory__read_graph", arguments: {} }], usage: { prompt: 1100, output: 10 } }),
      chatCompletionsReply({ text: "Noted: weft ships 2.0 on Friday.", usage: { prompt: 1200, output: 12 } }),
    );
    const model = await toolkit.kernel.createModel("openai-compatible/local-model");
    const agent = createAgent({ model, toolkit, compaction: false });
    await agent.startSession({ prompt: PROMPT });
    const response = await agent.process("Remember that weft ships 2.0 on Friday.");
    await agent.close();

    expect(response).toMatchObject({ status: "done", content: "Noted: weft ships 2.0 on Friday.", metadata: { iterations: 4, toolCalls: 3 } });
    const bodies = server.requests.map((request) => request.json());
    expect(bodies).toHaveLength(4);
    for (const body of bodies) expect(chatCompletionsWireProblems(body)).toEqual([]);

    // The skills catalog follows the session prompt in the system message.
    expect(toolkit.prompt).toBe(CATALOG);
    expect(bodies[0].messages).toEqual([
      { role: "system", content: `${PROMPT}\n\n${CATALOG}` },
      { role: "user", content: "Remember that weft ships 2.0 on Friday." },
    ]);
    // One tool list from both sources, sorted by name, the same bytes on every request.
    const names = bodies[0].tools.map((tool: { function: { name: string } }) => tool.function.name);
    expect(names).toEqual([
      "memory__add_observations",
      "memory__create_entities",
      "memory__create_relations",
      "memory__delete_entities",
      "memory__delete_observations",
      "memory__delete_relations",
      "memory__open_nodes",
      "memory__read_graph",
      "memory__search_nodes",
      "skill_execute_file",
      "skill_load",
      "skill_load_file",
    ]);
    expect(new Set(bodies.map((body) => JSON.stringify(body.tools))).size).toBe(1);

    // Each result is fed back as the tool message answering its call.
    expect(bodies[1].messages.at(-1)).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: [
        '<skill name="memory-keeper">',
        SKILL_BODY,
        "",
        "Files in this skill (read one with skill_load_file, run one with skill_execute_file):",
        "- entity-types.md",
        "</skill>",
      ].join("\n"),
    });
    expect(bodies[2].messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_2", content: JSON.stringify([ENTITY], null, 2) });
    expect(bodies[3].messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_3", content: JSON.stringify({ entities: [ENTITY], relations: [] }, null, 2) });
    // The real server wrote the entity where its entry's env told it to.
    expect((await readFile(memoryFile, "utf8")).trim().split("\n").map((line) => JSON.parse(line))).toEqual([{ type: "entity", ...ENTITY }]);

    await toolkit.close();
    expect(await waitForProcessExit(defined(serverPid), 10_000)).toBe(true);
    expect(await childrenRunning(MEMORY_SERVER)).toEqual([]);
  }, 60_000);
});
