import { describe, it } from 'vitest';
import {
  cancelled,
  check,
  effect,
  failed,
  happy,
  ok,
  type Row,
  requestedBeforeControls,
  retryAt,
} from './decider.js';

// Stage: analyzing (the model reads the issue and the repository).
const rows: Row[] = [
  {
    name: 'an analysis starts attempt 1: the model writes the change',
    given: happy.analyzing(),
    when: ok.analyzed(),
    expect: {
      state: 'generating',
      effect: effect('generate', 1),
      context: { attempt: 1, analysis: { summary: 'Add add()' } },
    },
  },
  {
    name: 'requested before budgets parked, an analysis that spends the whole budget fails the job',
    given: [requestedBeforeControls({ maxTokens: 150 }), ok.prepared(), ok.baseline()],
    when: ok.analyzed(200),
    expect: { state: 'failed', effect: null, context: { outcome: { reason: 'budget' }, pr: null } },
  },
  {
    name: 'a transient failure (the API overloaded) is retried',
    given: happy.analyzing(),
    when: failed('analyze', true),
    expect: { state: 'analyzing', effect: effect('analyze', 0, retryAt(0)) },
  },
  {
    name: 'a permanent failure (a refused key) fails the job',
    given: happy.analyzing(),
    when: failed('analyze', false),
    expect: { state: 'failed', effect: null, context: { outcome: { reason: 'error' } } },
  },
  {
    name: 'a cancel while the model reads',
    given: happy.analyzing(),
    when: cancelled('operator'),
    expect: { state: 'cancelled', effect: null },
  },
];

describe('decider: analyzing', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));
});
