import { describe, it } from 'vitest';
import { cancelled, check, effect, failed, happy, ok, type Row, requested, retryAt } from './decider.js';

// Stage: preparing (the job's clone and its config).
const rows: Row[] = [
  {
    name: 'a new request starts preparing',
    given: [],
    when: requested(),
    expect: { state: 'preparing', effect: effect('prepare', 0) },
  },
  {
    name: 'prepared: the baseline runs next',
    given: happy.preparing(),
    when: ok.prepared(),
    expect: {
      state: 'baselining',
      effect: effect('runBaseline', 0),
      context: { workspace: { baseSha: 'a'.repeat(40), defaultBranch: 'main' } },
    },
  },
  {
    name: 'a transient failure is retried after the backoff',
    given: happy.preparing(),
    when: failed('prepare', true),
    expect: {
      state: 'preparing',
      effect: effect('prepare', 0, retryAt(0)),
      context: { error: { retries: 1 } },
    },
  },
  {
    name: 'a second transient failure waits twice as long',
    given: [...happy.preparing(), failed('prepare', true)],
    when: failed('prepare', true),
    expect: {
      state: 'preparing',
      effect: effect('prepare', 0, retryAt(1)),
      context: { error: { retries: 2 } },
    },
  },
  {
    name: 'a transient failure past the retry limit fails the job',
    given: [requested({ maxRetries: 1 }), failed('prepare', true)],
    when: failed('prepare', true),
    expect: { state: 'failed', effect: null, context: { outcome: { reason: 'error' } } },
  },
  {
    name: 'a permanent failure fails the job at once',
    given: happy.preparing(),
    when: failed('prepare', false),
    expect: { state: 'failed', effect: null, context: { outcome: { reason: 'error' }, pr: null } },
  },
  {
    name: 'a cancel stops the job before anything is cloned',
    given: happy.preparing(),
    when: cancelled('closed'),
    expect: { state: 'cancelled', effect: null },
  },
];

describe('decider: preparing', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));
});
