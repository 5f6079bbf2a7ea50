/**
 * The skills folder of the `full` scenario, for frameworks without a skills feature of their own:
 * what an application would write by hand — a catalog in the system prompt and a tool that reads
 * one skill's instructions.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const READ_SKILL = {
  name: "read_skill",
  description: "Reads the full instructions of one skill from the catalog.",
};

function frontmatter(text) {
  const block = /^---\n([\s\S]*?)\n---\n/.exec(text);
  const fields = {};
  for (const line of block?.[1].split("\n") ?? []) {
    const colon = line.indexOf(":");
    if (colon > 0) fields[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { fields, body: block ? text.slice(block[0].length) : text };
}

export function loadSkillsFolder(dir) {
  const skills = new Map();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const { fields, body } = frontmatter(readFileSync(join(dir, entry.name, "SKILL.md"), "utf8"));
    skills.set(fields.name ?? entry.name, { description: fields.description ?? "", body });
  }
  const lines = [...skills].sort(([a], [b]) => a.localeCompare(b)).map(([name, skill]) => `- ${name}: ${skill.description}`);
  return {
    catalog: `Skills (read one with read_skill before following it):\n${lines.join("\n")}`,
    read: (name) => skills.get(name)?.body ?? `unknown skill "${name}"; known: ${[...skills.keys()].join(", ")}`,
  };
}
