/**
 * The JSON text of request parts that requests share and nobody changes (a provider's wire form of a
 * frozen message, a tool of a frozen tool list), by identity. A session's next request repeats the
 * last one's messages and tools, so each such part is encoded on its first request only.
 */
const keptJson = new WeakMap<object, string | undefined>();

/**
 * Declares that `part` will not change from here on (the caller guarantees it, deeply), so that
 * `encodeJsonBody` may keep its JSON text for the requests that follow. Returns `part`.
 */
export function keepJson<T extends object>(part: T): T {
  if (!keptJson.has(part)) keptJson.set(part, undefined);
  return part;
}

/**
 * A provider's wire form of a list that requests share, such as an agent's tool list: frozen until its
 * tools change (core's tool-specs.ts), so a thousand tools are mapped and encoded once per list, not on
 * every request. Each wire item is frozen, as the requests that follow share it (a request that must
 * change one, a cache breakpoint, replaces it with a copy), and its JSON text is kept (`keepJson`).
 * Each call returns a new plain array: a request may add to its own list, and V8 (Node 22) serialises
 * a body that holds a frozen array on its slow path, at twice the cost of the whole body.
 */
export function sharedWireList<T, W extends object>(toWire: (item: T) => W): (list: readonly T[]) => W[] {
  const lists = new WeakMap<readonly T[], readonly W[]>();
  return (list) => {
    const known = lists.get(list);
    if (known) return known.slice();
    const wire = list.map((item) => Object.freeze(toWire(item)));
    if (Object.isFrozen(list)) lists.set(list, wire.map((item) => keepJson(item)));
    return wire;
  };
}

/**
 * `body` (plain data) as JSON text: exactly what `JSON.stringify(body)` gives, its fields in order, with the items
 * of its top-level lists (messages, tools) encoded one by one so that a kept part's text is reused.
 * A body of a thousand prior messages then costs the encoding of the new ones, not of all of them.
 */
export function encodeJsonBody(body: object): string {
  // Joined with +, which links the pieces instead of copying them: the text is copied once, when it is sent.
  let json = "";
  for (const [key, value] of Object.entries(body)) {
    const text = Array.isArray(value) ? listJson(value) : JSON.stringify(value);
    // JSON.stringify leaves out a field whose value has no JSON form (undefined, a function).
    if (text !== undefined) json += `${json === "" ? "{" : ","}${JSON.stringify(key)}:${text}`;
  }
  return json === "" ? "{}" : `${json}}`;
}

function listJson(list: readonly unknown[]): string {
  let json = "";
  // By index: a sparse list's holes are items too, which JSON.stringify writes as null.
  for (let index = 0; index < list.length; index++) json += `${index === 0 ? "" : ","}${itemJson(list[index])}`;
  return `[${json}]`;
}

/** A list item's JSON: a kept part's text, encoded once; `null` for what has no JSON form, as in any list. */
function itemJson(item: unknown): string {
  if (typeof item !== "object" || item === null || !keptJson.has(item)) return JSON.stringify(item) ?? "null";
  let text = keptJson.get(item);
  if (text === undefined) {
    text = JSON.stringify(item);
    keptJson.set(item, text);
  }
  return text;
}
