import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { RECENT_DELIVERIES, SimStore } from '../../sim/github/github-sim-state.js';
import { newDelivery } from '../../sim/github/github-sim-webhooks.js';
import { tempDir } from '../support/job-harness.js';

// The simulator's state on disk: the deliveries in a log of their own, one line per change, read
// back by the next simulator on the same folder as the last one left them.

const lines = (dir: string) =>
  fs.readFileSync(path.join(dir, 'github-deliveries.jsonl'), 'utf8').split('\n').filter(Boolean);

describe('the simulator state on disk', () => {
  it('given deliveries made and tried, then a simulator started on the folder reads them as they were left', () => {
    const dir = tempDir('booty-sim-state-');
    const store = new SimStore(dir);
    const first = newDelivery('issues', 'labeled', { n: 1 });
    const second = newDelivery('issue_comment', 'created', { n: 2 });
    store.state.deliveries.push(first, second);
    store.nextId();
    store.save();
    const written = fs.statSync(store.file).ino;
    first.attempts = 1;
    first.status = 202;
    store.save();
    store.save();
    // One line per delivery made, one more for the one that changed; none for a save with no change.
    expect(lines(dir)).toHaveLength(3);
    // The rest of the state did not change: its file was not written again.
    expect(fs.statSync(store.file).ino).toBe(written);

    const again = new SimStore(dir);
    expect(again.state.deliveries).toEqual([first, second]);
    expect(again.state.seq).toBe(store.state.seq);
    // The log starts again from what was kept.
    expect(lines(dir)).toHaveLength(2);
  });

  it('saves each change at once by default, so a simulator killed after it answered is started again with it', () => {
    const dir = tempDir('booty-sim-state-');
    const store = new SimStore(dir);
    const id = store.nextId();
    store.save();
    expect(new SimStore(dir).state.seq).toBe(id);
  });

  it('with saveWithinMs, writes once for the changes made meanwhile, when that time is up', () => {
    vi.useFakeTimers();
    try {
      const dir = tempDir('booty-sim-state-');
      const store = new SimStore(dir, 50);
      const first = store.state.seq;
      for (let i = 0; i < 3; i++) {
        store.nextId();
        store.save();
      }
      expect(fs.existsSync(store.file)).toBe(false);
      vi.advanceTimersByTime(49);
      expect(fs.existsSync(store.file)).toBe(false);
      vi.advanceTimersByTime(1);
      expect(new SimStore(dir).state.seq).toBe(first + 3);
      // A save made meanwhile (as close() makes) writes what waits, and leaves nothing to write later.
      store.nextId();
      store.save();
      store.write();
      expect(new SimStore(dir).state.seq).toBe(first + 4);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('given a log whose last line a crash cut short, then the lines before it are read', () => {
    const dir = tempDir('booty-sim-state-');
    const store = new SimStore(dir);
    const made = newDelivery('issues', 'opened', { n: 1 });
    store.state.deliveries.push(made);
    store.save();
    fs.appendFileSync(path.join(dir, 'github-deliveries.jsonl'), '{"id":"cut-sh');
    expect(new SimStore(dir).state.deliveries).toEqual([made]);
  });

  it('given a state file that holds its deliveries itself, as before the log, then they are read', () => {
    const dir = tempDir('booty-sim-state-');
    const store = new SimStore(dir);
    const made = newDelivery('issues', 'opened', { n: 1 });
    fs.writeFileSync(store.file, JSON.stringify({ ...store.state, deliveries: [made] }));
    fs.rmSync(path.join(dir, 'github-deliveries.jsonl'));
    expect(new SimStore(dir).state.deliveries).toEqual([made]);
  });

  it('keeps the newest deliveries only, as GitHub keeps its recent ones', () => {
    const dir = tempDir('booty-sim-state-');
    const store = new SimStore(dir);
    const made = Array.from({ length: RECENT_DELIVERIES + 5 }, (_, i) => newDelivery('push', null, { i }));
    for (const d of made) {
      store.state.deliveries.push(d);
      store.save();
    }
    expect(new SimStore(dir).state.deliveries).toEqual(made.slice(5));
  });
});
