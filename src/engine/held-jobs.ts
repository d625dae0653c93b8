import type { JobRecord } from '../store/records.js';

// A gate a new job passes before its first step: the per-day dollar cap
// (src/effects/daily-spend-cap.ts) holds new jobs back while their installation's day is spent.
// A held job is not failed and takes no slot: it stays as requested, and is offered again when
// the gate said to look again (a timer on the supervisor's clock, so a test moves the day on).

export interface StartGate {
  /**
   * Null: the job may start now. Else it waits, and is looked at again at `recheckAt` (epoch ms,
   * by the supervisor's clock; the gate keeps it near, so a day that rolls over is seen soon).
   */
  hold(job: JobRecord): Promise<{ recheckAt: number } | null>;
}

export class HeldJobs {
  /** When each held job is looked at again. */
  private readonly due = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly host: { now(): number; offer(jobId: string): void }) {}

  add(jobId: string, recheckAt: number) {
    this.due.set(jobId, recheckAt);
    this.arm();
  }

  /** With leases the job is queued delayed instead: no timer here offers it. */
  take(jobId: string): number | undefined {
    const at = this.due.get(jobId);
    if (this.due.delete(jobId)) this.arm();
    return at;
  }

  get jobs(): string[] {
    return [...this.due.keys()];
  }

  /** Shutdown: nothing is offered again (the next start's boot looks at the held jobs anew). */
  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.due.clear();
  }

  private arm() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.due.size === 0) return;
    const next = Math.min(...this.due.values());
    this.timer = setTimeout(() => this.wake(), Math.max(0, next - this.host.now()));
  }

  private wake() {
    const now = this.host.now();
    for (const [jobId, at] of this.due) {
      if (at > now) continue;
      this.due.delete(jobId);
      this.host.offer(jobId);
    }
    this.arm();
  }
}
