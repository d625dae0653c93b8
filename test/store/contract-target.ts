import type { DeliveryRecord, JobUpdate, NewEvent } from '../../src/store/records.js';

// What the store's contract suites share: how a suite is given stores (a backend's test file says
// how to make one), and the events, jobs and deliveries they write.

/** A fresh, empty store, and a fresh store over the same storage, as a restarted process sees it. */
export interface MadeStore<S> {
  store: S;
  reopen: () => S | Promise<S>;
}

/** How a backend makes the stores a contract suite runs on; a server database may take a moment. */
export interface StoreMaker<S> {
  make(): MadeStore<S> | Promise<MadeStore<S>>;
}

export interface Closable {
  close(): Promise<void>;
}

export const ev = (type: string, n: number, state = `s${n}`): NewEvent => ({ type, data: { n }, state });

/** An issue's `labeled` webhook delivery, recorded as created. */
export const delivery = (deliveryId: string, jobId: string | null = null): DeliveryRecord => ({
  deliveryId,
  event: 'issues',
  action: 'labeled',
  outcome: 'created',
  jobId,
});

/** A job of issue o/r#4 in a state, as an append's `job` option. */
export const jobAt = (state: string, over: Partial<JobUpdate> = {}): JobUpdate => ({
  repo: 'o/r',
  issue: 4,
  state,
  attempts: 0,
  final: false,
  outcome: null,
  tokens: 0,
  ...over,
});

/** What the promise rejected with; fails when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}
