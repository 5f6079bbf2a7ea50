/** Escapes text for the content of an XML element. */
export function xmlText(text: string): string {
  return text.replace(/[&<>]/g, (character) => XML_ENTITIES[character] ?? character);
}

/** Escapes text for a double-quoted XML attribute. */
export function xmlAttribute(text: string): string {
  return text.replace(/[&<>"]/g, (character) => XML_ENTITIES[character] ?? character);
}

const XML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
