// One git operation that writes refs at a time per mirror (a sync, a commit's build): two jobs on
// the same repository would otherwise race on its ref locks. What only reads the mirror's objects,
// such as a push, runs without it. In-process only: one booty process owns a workdir.

const tails = new Map<string, Promise<unknown>>();

export function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}
