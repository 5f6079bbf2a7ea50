/** Everything an async iterable yields, in order (a model's stream, an agent's events). */
export async function drain<T>(items: AsyncIterable<T>): Promise<T[]> {
  const seen: T[] = [];
  for await (const item of items) seen.push(item);
  return seen;
}

/** The error a promise rejects with; throws when it resolves instead. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected the promise to reject, but it resolved");
    },
    (error: unknown) => error,
  );
}
