import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppendOptions, AppendResult } from '../../src/store/event-log.js';
import type { NewEvent } from '../../src/store/records.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { harness, tempDir } from '../support/job-harness.js';

// The runner writes each event the live actor took, with the state it reached; the effects that
// transition starts wait for that write. These tests hold the other half of the rule: an effect
// whose cause was not written never acts.

/** A real SQLite store whose disk fails for the events `fails` picks, as SQLite reports it. */
class FailingDisk extends SqliteEventStore {
  fails: (event: NewEvent) => boolean = () => false;
  failures = 0;

  override async append(
    streamId: string,
    expectedVersion: number,
    events: NewEvent[],
    options?: AppendOptions,
  ): Promise<AppendResult> {
    if (events.some((e) => this.fails(e))) {
      this.failures++;
      throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
    }
    return super.append(streamId, expectedVersion, events, options);
  }
}

describe('write-ahead: one transition per event', () => {
  it('given the write of a step outcome fails, then the effect that outcome started never runs, and the next start runs the step again from the log', async () => {
    const db = path.join(tempDir(), 'booty.db');
    const disk = new FailingDisk(db);
    disk.fails = (e) => e.type === 'StepSucceeded' && (e.data as { step?: string }).step === 'prepare';
    const h = harness({}, { store: disk, db });
    const r = await h.request();
    if (r.outcome !== 'created') throw new Error(r.outcome);

    // prepare ran, the actor took its outcome and entered baselining, whose effect waits for the
    // write; the write fails, the job stops, and the baseline is never run.
    for (let i = 0; disk.failures === 0 && i < 500; i++) await new Promise((r) => setTimeout(r, 10));
    expect(disk.failures).toBe(1);
    await h.supervisor.shutdown();
    expect(h.effects.log).toEqual([`${r.jobId}:prepare:0`]);
    expect((await disk.readStream(r.jobId)).map((e) => e.type)).toEqual(['JobRequested']);
    await disk.close();

    // The disk is back: the next start folds the log, runs prepare again, and goes on from there.
    const again = harness({}, { db });
    expect(await again.supervisor.boot()).toEqual([r.jobId]);
    const end = await again.supervisor.whenFinished(r.jobId);
    expect(end.status === 'done' || end.hasTag('waiting')).toBe(true);
    expect(again.effects.log.slice(0, 2)).toEqual([`${r.jobId}:prepare:0`, `${r.jobId}:runBaseline:0`]);
    await again.supervisor.shutdown();
  });
});
