/** A fetch that adds `headers` to every request (the card fetch and every A2A call). */
export function fetchWithHeaders(headers: Record<string, string>): typeof fetch {
  const entries = Object.entries(headers);
  return (input, init) => {
    if (entries.length === 0) return fetch(input, init);
    const merged = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    for (const [name, value] of entries) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
}
