import { homedir } from "node:os";
import path from "node:path";
import { errorMessage, stderrLogger, type Logger, type PluginApi, type Registrable, type SkillData, type SkillProvider, type Tool, type ToolSource } from "@weft/sdk";
import { renderCatalog } from "./catalog.js";
import { compareCodePoints } from "./code-point-order.js";
import { dataSkill, loadSkillFolder, type Skill } from "./skill.js";
import { discoverSkillFolders } from "./skill-discovery.js";
import { InvalidSkillNameError } from "./skill-errors.js";
import { skillExecuteFileTool, DEFAULT_SKILL_TIMEOUT_MS } from "./skill-execute-file.js";
import { skillLoadFileTool } from "./skill-load-file.js";
import { skillLoadTool } from "./skill-load.js";
import type { SkillLookup } from "./skill-lookup.js";

export interface SkillCollectionOptions {
  /** The collection's name: the `id` of its tools' source. Default `skills`. */
  name?: string;
  /** Roots searched recursively for folders holding a SKILL.md. */
  skillsDir?: string | string[];
  /** Skills given as data. */
  skills?: SkillData[];
  skillProvider?: SkillProvider;
  /** An allowlist of names (an empty list filters nothing), or a map: any `true` makes it an allowlist, only `false` a drop-list. */
  skillsFilter?: string[] | Record<string, boolean>;
  /** Names to drop. */
  disableSkills?: string[];
  /** Files `skill_load` lists: 0 the default (10), a positive number caps it, -1 lists none. */
  skillSampleLimit?: number;
  /** A script's time limit in ms; default 2 minutes. */
  timeoutMs?: number;
  /** Where warnings go (duplicates, unreadable skills, unmatched filter names); stderr by default. */
  logger?: Logger;
  /** The folder `addClaudeSkill` looks in; `~/.claude/skills` by default. */
  claudeSkillsDir?: string;
}

/** A skill as `weft skills list` shows it. */
export interface SkillSummary {
  name: string;
  description: string;
  /** The skill folder's real path, or where a data skill came from (`skills option`, `skill provider`). */
  location: string;
  kind: "folder" | "data";
  files: string[];
}

/**
 * Skills from every source, combined: the options' sources first (skillsDir, skills, skillProvider,
 * in that order, loaded once when first needed), then `add` and `addClaudeSkill` in call order. A
 * name seen again is dropped with a warning. Filters apply to what the model sees.
 */
export interface SkillCollection extends Registrable {
  readonly name: string;
  /** Adds one skill folder; a broken one is an error (SkillFolderNotFound, InvalidFrontmatter). */
  add(folder: string): Promise<SkillSummary>;
  /** Adds `~/.claude/skills/<name>`; `name` must be one folder name (InvalidSkillName). */
  addClaudeSkill(name: string): Promise<SkillSummary>;
  /** The skills the model sees, sorted by name. */
  list(): Promise<SkillSummary[]>;
  /** The system-prompt section, "" when there are no skills. */
  catalog(): Promise<string>;
  /** `skill_load`, `skill_load_file` and `skill_execute_file`. */
  tools(): Tool[];
  /** Adds the tools and the catalog to a plugin or session scope, unless there are no skills. */
  register(api: PluginApi): Promise<void>;
}

export function createSkillCollection(options: SkillCollectionOptions = {}): SkillCollection {
  return new Skills(options);
}

/** The skills a set of sources gives, for `weft skills list`. */
export function listSkills(options: SkillCollectionOptions): Promise<SkillSummary[]> {
  return createSkillCollection(options).list();
}

class Skills implements SkillCollection, SkillLookup {
  readonly name: string;
  readonly #options: SkillCollectionOptions;
  readonly #logger: Logger;
  readonly #source: ToolSource;
  readonly #all: Skill[] = [];
  readonly #warnedFilterNames = new Set<string>();
  #loaded: Promise<void> | undefined;
  /** Serialises additions, so that which duplicate wins follows the call order. */
  #queue: Promise<unknown> = Promise.resolve();
  #tools: Tool[] | undefined;
  /** The catalog until the skills change: the prompt hook asks for it before every model call. */
  #catalog: Promise<string> | undefined;

  constructor(options: SkillCollectionOptions) {
    this.#options = options;
    this.name = options.name ?? "skills";
    this.#logger = options.logger ?? stderrLogger;
    this.#source = { kind: "skill", id: this.name };
  }

  add(folder: string): Promise<SkillSummary> {
    // Dropped now, not when the folder is in: a catalog asked for after this call includes it.
    this.#catalog = undefined;
    return this.#enqueue(async () => summary(this.#put(await loadSkillFolder(path.resolve(folder), this.#logger))));
  }

  addClaudeSkill(name: string): Promise<SkillSummary> {
    const refusal = singleFolderProblem(name);
    if (refusal) return Promise.reject(new InvalidSkillNameError(name, refusal));
    const root = this.#options.claudeSkillsDir ?? path.join(homedir(), ".claude", "skills");
    return this.add(path.join(root, name));
  }

  async list(): Promise<SkillSummary[]> {
    return (await this.#active()).map(summary);
  }

  catalog(): Promise<string> {
    this.#catalog ??= this.#active().then(renderCatalog);
    return this.#catalog;
  }

  tools(): Tool[] {
    this.#tools ??= [
      skillLoadTool(this, this.#source, this.#options.skillSampleLimit ?? 0),
      skillLoadFileTool(this, this.#source),
      skillExecuteFileTool(this, this.#source, this.#options.timeoutMs ?? DEFAULT_SKILL_TIMEOUT_MS),
    ];
    return this.#tools;
  }

  async register(api: PluginApi): Promise<void> {
    if ((await this.#active()).length === 0) return;
    for (const tool of this.tools()) api.tools.add(tool);
    api.hooks.prompt.tap(async (sections) => {
      const catalog = await this.catalog();
      return catalog ? [...sections, catalog] : sections;
    });
  }

  async find(name: string): Promise<Skill | undefined> {
    return (await this.#active()).find((skill) => skill.name === name);
  }

  async names(): Promise<string[]> {
    return (await this.#active()).map((skill) => skill.name);
  }

  /** The skills that pass the filters, sorted by name. */
  async #active(): Promise<Skill[]> {
    await this.#enqueue(async () => undefined);
    const keep = this.#filter();
    return this.#all.filter((skill) => keep(skill.name)).sort((a, b) => compareCodePoints(a.name, b.name));
  }

  #filter(): (name: string) => boolean {
    const { skillsFilter, disableSkills = [] } = this.#options;
    const entries = Array.isArray(skillsFilter) ? skillsFilter.map((name) => [name, true] as const) : Object.entries(skillsFilter ?? {});
    const allowed = entries.filter(([, keep]) => keep).map(([name]) => name);
    const dropped = [...disableSkills, ...entries.filter(([, keep]) => !keep).map(([name]) => name)];
    for (const name of [...entries.map(([entry]) => entry), ...disableSkills]) {
      if (this.#warnedFilterNames.has(name) || this.#all.some((skill) => skill.name === name)) continue;
      this.#warnedFilterNames.add(name);
      this.#logger.warn(`skills: the filter names "${name}", which matches no skill`);
    }
    return (name) => (allowed.length === 0 || allowed.includes(name)) && !dropped.includes(name);
  }

  /** Runs `step` after the options' sources are loaded and after every earlier addition. */
  #enqueue<T>(step: () => Promise<T>): Promise<T> {
    this.#loaded ??= this.#loadSources();
    const run = this.#queue.then(() => this.#loaded).then(step);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #loadSources(): Promise<void> {
    const { skillsDir = [], skills = [], skillProvider } = this.#options;
    const visited = new Set<string>();
    for (const root of typeof skillsDir === "string" ? [skillsDir] : skillsDir) {
      for (const folder of await discoverSkillFolders(path.resolve(root), visited, this.#logger)) {
        try {
          this.#put(await loadSkillFolder(folder, this.#logger));
        } catch (error) {
          this.#logger.warn(`skills: skipped ${folder}: ${errorMessage(error)}`);
        }
      }
    }
    this.#putData(skills, "skills option");
    if (skillProvider) {
      try {
        this.#putData(await skillProvider(), "skill provider");
      } catch (error) {
        this.#logger.warn(`skills: the skill provider failed, its skills are left out: ${errorMessage(error)}`);
      }
    }
  }

  #putData(skills: SkillData[], origin: string): void {
    if (!Array.isArray(skills)) {
      this.#logger.warn(`skills: the ${origin} gave no list of skills; its skills are left out`);
      return;
    }
    for (const data of skills) {
      try {
        this.#put(dataSkill(data, origin, this.#logger));
      } catch (error) {
        this.#logger.warn(`skills: skipped a skill: ${errorMessage(error)}`);
      }
    }
  }

  /** Keeps the first skill of each name; the same folder reached twice is kept once, silently. */
  #put(skill: Skill): Skill {
    const first = this.#all.find((kept) => kept.name === skill.name);
    if (!first) {
      this.#all.push(skill);
      return skill;
    }
    if (!(first.kind === "folder" && skill.kind === "folder" && first.origin === skill.origin)) {
      this.#logger.warn(`skills: duplicate skill "${skill.name}": keeping the one from ${first.origin}, ignoring the one from ${skill.origin}`);
    }
    return first;
  }
}

function summary(skill: Skill): SkillSummary {
  return { name: skill.name, description: skill.description, location: skill.origin, kind: skill.kind, files: [...skill.files] };
}

/** Why `name` is not one plain folder name, or undefined when it is. */
function singleFolderProblem(name: string): string | undefined {
  if (typeof name !== "string" || name === "") return "give the name of one folder in ~/.claude/skills";
  if (name === "." || name === ".." || /[\\/\0]/.test(name)) return "it must be a single folder name in ~/.claude/skills, without /, \\ or ..";
  return undefined;
}
