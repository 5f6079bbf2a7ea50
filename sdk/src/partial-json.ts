/**
 * The value of a JSON text cut off mid-way, as far as it goes: open strings, arrays and objects are
 * closed, and a key without its value, a dangling comma or a half-written literal are left out.
 * Undefined when nothing can be read yet. Used to stream partial objects of a structured reply.
 */
export function parsePartialJson(text: string): unknown {
  const whole = tryParse(text);
  if (whole.ok) return whole.value;
  const stack: ("}" | "]")[] = [];
  let inString = false;
  let escaped = false;
  let stringIsKey = false;
  /** The last char outside strings and whitespace: tells a key from a value. */
  let previous = "";
  /** Where a cut gives valid JSON once the open containers are closed, with their closers then. */
  let safe: { end: number; closers: string } | undefined;
  const mark = (end: number) => {
    safe = { end, closers: [...stack].reverse().join("") };
  };
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') {
        inString = false;
        previous = '"';
        if (!stringIsKey) mark(index + 1);
      }
      continue;
    }
    if (char === undefined || /\s/.test(char)) continue;
    if (char === '"') {
      inString = true;
      stringIsKey = stack.at(-1) === "}" && (previous === "{" || previous === ",");
    } else if (char === "{" || char === "[") {
      stack.push(char === "{" ? "}" : "]");
      mark(index + 1);
    } else if (char === "}" || char === "]") {
      stack.pop();
      mark(index + 1);
    } else if (char === "," && /[\w.]/.test(previous)) {
      // A number or literal ends at the comma that follows it.
      mark(index);
    }
    previous = char;
  }
  const closers = [...stack].reverse().join("");
  if (inString && !stringIsKey) {
    // An open string value: closed where it stops, minus half an escape sequence.
    const body = text.replace(/\\u[0-9a-fA-F]{0,3}$|\\$/, "");
    const closed = tryParse(`${body}"${closers}`);
    if (closed.ok) return closed.value;
  } else if (!inString) {
    const asIs = tryParse(`${text}${closers}`);
    if (asIs.ok) return asIs.value;
  }
  if (!safe) return undefined;
  const cut = tryParse(`${text.slice(0, safe.end)}${safe.closers}`);
  return cut.ok ? cut.value : undefined;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
