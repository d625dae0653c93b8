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

// Stage: generating (the model writes the change and its tests for attempt 1).
const rows: Row[] = [
  {
    name: 'a proposal is applied through the path policy next',
    given: happy.generating(),
    when: ok.generated(),
    expect: {
      state: 'applying',
      effect: effect('applyChanges', 1),
      context: { attempts: [{ n: 1, explanation: 'adds add()', applied: false }] },
    },
  },
  {
    name: 'requested before budgets parked, a proposal over the budget fails the job before anything is written',
    given: [requestedBeforeControls({ maxTokens: 150 }), ok.prepared(), ok.baseline(), ok.analyzed(100)],
    when: ok.generated(1, 100),
    expect: { state: 'failed', effect: null, context: { outcome: { reason: 'budget' }, changes: [] } },
  },
  {
    name: 'a transient failure is retried',
    given: happy.generating(),
    when: failed('generate', true, 1),
    expect: { state: 'generating', effect: effect('generate', 1, retryAt(0)) },
  },
  {
    name: 'the tokens a failed step spent count in the budget, retried or not',
    given: [...happy.generating(), failed('generate', true, 1, 40)],
    when: failed('generate', false, 1, 60),
    expect: { state: 'failed', effect: null, context: { usage: { inputTokens: 200 } } },
  },
  {
    name: 'a permanent failure fails the job: no change was applied, so no PR',
    given: happy.generating(),
    when: failed('generate', false, 1),
    expect: { state: 'failed', effect: null, context: { pr: null } },
  },
  {
    name: 'a cancel while the model writes',
    given: happy.generating(),
    when: cancelled(),
    expect: { state: 'cancelled', effect: null },
  },
];

describe('decider: generating', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));
});
