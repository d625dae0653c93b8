import type { Delay, JobLeases, Lease, LeaseSettings, QueueStats } from './job-leases.js';

// Job leases in memory, for tests: the JobLeases contract (test/store/job-leases-contract.ts) on a
// queue that the workers of one process share, on a clock a test may move. A job has one row at a
// time: offered (due now, or after a delay) or leased (to a token, until a time). A lease not
// renewed before its end has lapsed: its holder can neither renew nor release it, and once a
// worker's lapse() puts it back, the next take leases the job anew. (The database restart that
// pg-boss-leases.ts counts a period from has no counterpart here.)

interface QueueRow {
  jobId: string;
  /** Halts in a row, as the last delayed release left them (Lease.halts). */
  halts: number;
  /** When an offered job may be taken (epoch ms on the queue's clock). */
  due: number;
  /** Its last lease lapsed: the next take is a takeover. */
  lapsed: boolean;
  lease: { token: string; until: number } | null;
}

/** What the workers on one queue share: its rows and its clock. */
export class MemoryLeaseQueue {
  /** Each job's one row, in the order the jobs were offered. */
  readonly rows = new Map<string, QueueRow>();
  readonly now: () => number;
  private taken = 0;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** A token no lease on this queue had before. */
  nextToken(): string {
    this.taken += 1;
    return `lease-${this.taken}`;
  }
}

export class MemoryJobLeases implements JobLeases {
  readonly settings: LeaseSettings;
  private readonly queue: MemoryLeaseQueue;

  /** One worker's leases, on its own queue unless it shares another worker's. */
  constructor(settings: LeaseSettings, queue = new MemoryLeaseQueue()) {
    this.settings = settings;
    this.queue = queue;
  }

  async ready(): Promise<void> {}

  async offer(jobIds: string[]): Promise<void> {
    const now = this.queue.now();
    for (const jobId of jobIds)
      if (!this.queue.rows.has(jobId))
        this.queue.rows.set(jobId, { jobId, halts: 0, due: now, lapsed: false, lease: null });
  }

  async take(max: number): Promise<Lease[]> {
    const now = this.queue.now();
    const leases: Lease[] = [];
    for (const row of this.queue.rows.values()) {
      if (leases.length >= max) break;
      if (row.lease || row.due > now) continue;
      row.lease = { token: this.queue.nextToken(), until: this.end(now) };
      leases.push({ jobId: row.jobId, token: row.lease.token, halts: row.halts, takenOver: row.lapsed });
      row.lapsed = false;
    }
    return leases;
  }

  async lapse(): Promise<string[]> {
    const now = this.queue.now();
    const lapsed = [...this.queue.rows.values()].filter((row) => row.lease && row.lease.until <= now);
    for (const row of lapsed) Object.assign(row, { lease: null, due: now, lapsed: true });
    return lapsed.map((row) => row.jobId);
  }

  async stats(): Promise<QueueStats> {
    const now = this.queue.now();
    const rows = [...this.queue.rows.values()];
    const waiting = rows.filter((r) => !r.lease && r.due <= now);
    return {
      queued: waiting.length,
      oldestSeconds: waiting.length ? (now - Math.min(...waiting.map((r) => r.due))) / 1000 : 0,
      leased: rows.filter((r) => r.lease).length,
      delayed: rows.filter((r) => !r.lease && r.due > now).length,
    };
  }

  async nextDueIn(): Promise<number | null> {
    const now = this.queue.now();
    const dues = [...this.queue.rows.values()].filter((r) => !r.lease && r.due > now).map((r) => r.due);
    return dues.length > 0 ? Math.min(...dues) - now : null;
  }

  async renew(leases: Lease[]): Promise<Lease[]> {
    const now = this.queue.now();
    return leases.filter((lease) => {
      const held = this.held(lease, now);
      if (held) held.until = this.end(now);
      return !held;
    });
  }

  async release(lease: Lease, delay?: Delay): Promise<boolean> {
    const now = this.queue.now();
    if (!this.held(lease, now)) return false;
    if (!delay) return this.queue.rows.delete(lease.jobId);
    this.queue.rows.set(lease.jobId, {
      jobId: lease.jobId,
      halts: delay.halts,
      due: now + delay.seconds * 1000,
      lapsed: false,
      lease: null,
    });
    return true;
  }

  /** Nothing runs in the background here, so there is no fault of the queue's own to report. */
  reportErrorsTo(): void {}

  async close(): Promise<void> {}

  /** The lease's hold on its row, when it is still the row's and has not lapsed. */
  private held(lease: Lease, now: number) {
    const held = this.queue.rows.get(lease.jobId)?.lease;
    return held && held.token === lease.token && held.until > now ? held : null;
  }

  private end(now: number): number {
    return now + this.settings.seconds * 1000;
  }
}
