import { afterEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { defineTool } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { parseConfigDocument } from "../config/config-yaml.js";
import { parseProjectConfig } from "../config/project-config.js";
import { testKernels } from "../test-fixtures/test-kernels.js";
import { createAgent } from "./agent.js";
import { localAgents } from "./local-agents.js";

const newKernel = testKernels(afterEach);

const CONFIG = `model: scripted/test-model
agents:
  - card: https://agents.example/.well-known/agent-card.json
  - name: glossary
    description: Defines words
    local:
      instructions: You define words in one sentence.
      tools: { only: [lookup] }
      maxIterations: 2
`;

describe("local agents from the config's agents: list", () => {
  it("become tools of every session, each running as a subagent with its instructions, tool subset and budget", async () => {
    const config = parseProjectConfig(parseConfigDocument("/app/weft.config.yaml", CONFIG, {}));
    const subagents = localAgents(config.agents);
    expect(subagents.map((agent) => agent.name)).toEqual(["glossary"]);

    const kernel = newKernel();
    const scope = kernel.scope("test tools");
    scope.tools.add(defineTool({ name: "lookup", description: "Look a word up", input: Type.Object({ word: Type.String() }), execute: ({ word }) => ({ output: `${word}: a rodent` }) }));
    scope.tools.add(defineTool({ name: "shell", description: "Not for the glossary", input: Type.Object({}), execute: () => ({ output: "no" }) }));
    // One model plays both parts, in turn: the caller, the glossary, the caller again.
    const model = scriptedModel([
      { toolCalls: [{ id: "g1", name: "glossary", arguments: { task: "vole" } }] },
      { toolCalls: [{ name: "lookup", arguments: { word: "vole" } }] },
      "A vole is a rodent.",
      "Voles are rodents.",
    ]);
    const agent = createAgent({ model, kernel, subagents });
    expect(await agent.process("what is a vole?")).toMatchObject({ content: "Voles are rodents." });
    expect(model.requests[0]?.tools?.map((spec) => spec.name)).toEqual(["glossary", "lookup", "shell"]);
    expect(model.requests[1]?.messages[0]).toEqual({ role: "system", content: "You define words in one sentence." });
    expect(model.requests[1]?.tools?.map((spec) => spec.name)).toEqual(["lookup"]);
    expect(agent.messages().at(-2)).toEqual({ role: "tool", toolCallId: "g1", toolName: "glossary", content: "A vole is a rodent." });
  });

  it("names the file, line and option of a local agent that is set up wrong", () => {
    const parse = (text: string) => () => parseProjectConfig(parseConfigDocument("/app/weft.config.yaml", text, {}));
    expect(parse("agents:\n  - name: glossary\n    description: Defines words\n    local: { instructions: Be brief., tool: [lookup] }\n")).toThrow(
      /weft\.config\.yaml:4:.*agents\[0\]\.local\.tool.*is not an option of a local agent \(known: instructions, model, tools, maxIterations\)/,
    );
    expect(parse("agents:\n  - name: glossary\n    local: { instructions: Be brief. }\n")).toThrow(/agents\[0\]\.description.*expected a non-empty string/);
  });
});
