// Waiting in tests for what other processes, workers or timers bring about.

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it gives something truthy, and returns that; fails
 * naming `what` after `ms`, with `why()` appended (a child's output, say) when given.
 */
export async function until<T>(
  what: string,
  probe: () => T | Promise<T>,
  ms = 20_000,
  why?: () => string,
): Promise<Exclude<T, false | null | undefined | 0 | ''>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found) return found as Exclude<T, false | null | undefined | 0 | ''>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${why ? `\n${why()}` : ''}`);
    await sleep(50);
  }
}
