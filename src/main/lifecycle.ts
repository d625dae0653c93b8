// One owner of the process's life. Each part registers its own close when it is made, under the
// phase it belongs to, and the root runs the phases in this order, whatever order the parts were
// made in (fastify's onClose, with the order written down instead of implied):
//
//   refuse    no new work: readiness says shutting down, the catch-up and the store's probe stop
//   jobs      the jobs stop (their logs resume them next start), what they waited on is cut short,
//             their comments and clones are flushed
//   store     the event store closes: nothing writes to it any more
//   listener  the HTTP listener closes, last, so no delivery meets a refused connection meanwhile
//   lock      the database lock goes: a waiting booty may start
//
// Within a phase, closes run in the order they were registered. A close that fails is logged by the
// caller's onError and does not stop the ones after it; close() rejects with the first failure
// once all have run. Closing twice returns the first close's promise.

export const PHASES = ['refuse', 'jobs', 'store', 'listener', 'lock'] as const;
export type Phase = (typeof PHASES)[number];

type Close = () => unknown;

export class Lifecycle {
  private readonly closes = new Map<Phase, { name: string; close: Close }[]>(PHASES.map((p) => [p, []]));
  private closing: Promise<void> | null = null;

  constructor(private readonly onError: (err: unknown, part: string) => void = () => {}) {}

  /** Registers a part's close under its phase. */
  on(phase: Phase, name: string, close: Close): void {
    this.closes.get(phase)!.push({ name, close });
  }

  get closed(): boolean {
    return this.closing !== null;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      let first: unknown = null;
      for (const phase of PHASES) {
        for (const { name, close } of this.closes.get(phase)!) {
          try {
            await close();
          } catch (err) {
            this.onError(err, name);
            first ??= err;
          }
        }
      }
      if (first !== null) throw first;
    })();
    return this.closing;
  }
}
