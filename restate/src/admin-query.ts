/** Rows of a SQL query on Restate's admin API (its state, invocations...): answered with no worker running. */
export async function adminQuery<Row>(adminUrl: string, query: string): Promise<Row[]> {
  const response = await fetch(`${adminUrl}/query`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ query }),
  });
  if (!response.ok) throw new Error(`restate admin query failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { rows: Row[] }).rows;
}

/** A string as a SQL literal's contents. */
export function sqlText(text: string): string {
  return text.replaceAll("'", "''");
}
