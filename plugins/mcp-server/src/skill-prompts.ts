/** A skill as the catalog in the system prompt lists it. */
export interface CatalogSkill {
  name: string;
  description: string;
}

const ENTRY = /<skill>\n<name>([^<]*)<\/name>\n<description>([^<]*)<\/description>\n<\/skill>/g;
const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&apos;": "'" };

/**
 * The skills of a toolkit's prompt, read from its `<available_skills>` catalog (text pinned by the
 * skills plugin's tests): the toolkit offers no other view of them across the plugin boundary.
 */
export function catalogSkills(prompt: string): CatalogSkill[] {
  const unescapeXml = (text: string) => text.replace(/&(lt|gt|amp|quot|apos);/g, (entity) => ENTITIES[entity] ?? entity);
  return [...prompt.matchAll(ENTRY)].map((match) => ({ name: unescapeXml(match[1] ?? ""), description: unescapeXml(match[2] ?? "") }));
}
