import { describe, it } from 'vitest';
import {
  cancelled,
  check,
  effect,
  failed,
  later,
  ok,
  type Row,
  requestedBeforeControls,
  retryAt,
} from './decider.js';

// Stage: refining (the model fixes its change from what the tests said).
const refining = later.refining();

const rows: Row[] = [
  {
    name: 'a refined proposal is applied for attempt 2',
    given: refining,
    when: ok.refined(2),
    expect: { state: 'applying', effect: effect('applyChanges', 2), context: { attempt: 2 } },
  },
  {
    name: 'requested before budgets parked, a refinement over the budget: the earlier work goes up as a draft PR',
    given: [requestedBeforeControls({ maxTokens: 250 }), ...refining.slice(1)],
    when: ok.refined(2, 100),
    expect: { state: 'openingPr', effect: effect('openPr', 2), context: { outcome: { reason: 'budget' } } },
  },
  {
    name: 'a transient failure is retried',
    given: refining,
    when: failed('refine', true, 2),
    expect: { state: 'refining', effect: effect('refine', 2, retryAt(0)) },
  },
  {
    name: 'a permanent failure: the earlier work goes up as a draft PR',
    given: refining,
    when: failed('refine', false, 2),
    expect: { state: 'openingPr', effect: effect('openPr', 2), context: { outcome: { reason: 'error' } } },
  },
  {
    name: 'a cancel while the model refines',
    given: refining,
    when: cancelled(),
    expect: { state: 'cancelled', effect: null },
  },
];

describe('decider: refining', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));
});
