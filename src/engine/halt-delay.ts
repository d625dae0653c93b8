// How long a job whose run halted waits before any worker runs it again. A halt that is no store
// fault and no conflict (an event the log did not take, an append refused, a machine error) most
// likely comes again, and each run does the effect in flight again (a paid model call, a GitHub
// action): the wait starts at two lease periods, what the sweep waited anyway, and doubles with
// each halt in a row, up to six hours.

export const HALT_DELAY_CAP_SECONDS = 6 * 60 * 60;

/** Seconds the job waits after its `halts`-th halt in a row (1 for the first). */
export function haltDelaySeconds(leaseSeconds: number, halts: number): number {
  return Math.min(HALT_DELAY_CAP_SECONDS, leaseSeconds * 2 * 2 ** Math.max(0, halts - 1));
}
