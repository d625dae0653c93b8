// A part made on first use, once: `serve` starts without the Claude SDK or the test runners'
// parsers in memory, and loads them when the first job needs them. A failed make (a module that
// would not load) is tried again on the next use instead of being remembered.

export function onFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null;
  return () => {
    made ??= make().catch((err: unknown) => {
      made = null;
      throw err;
    });
    return made;
  };
}
