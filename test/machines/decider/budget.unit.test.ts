import { describe, it } from 'vitest';
import type { DomainEvent, Step } from '../../../src/events/catalogue.js';
import {
  cancelled,
  check,
  command,
  effect,
  expectNotTaken,
  failed,
  ok,
  outside,
  type Row,
  requested,
  requestedBeforeControls,
  retryAt,
} from './decider.js';

// Stage: the token budget (#15 item 7). A job stamped with a budget step (machine 5) that reaches
// its budget waits in budgetExhausted; a writer's `@booty continue` raises the budget once by the
// step and resumes exactly where it stopped. A job stamped before budgets parked still fails.

const AT = 1_700_000_000_000;

const budgeted = (maxTokens: number, budgetStep: number | null = 500) => requested({ maxTokens, budgetStep });

/** A model step that could not afford its request (what the Claude effect throws). */
const cannotAfford = (step: Step, attempt: number): DomainEvent => ({
  type: 'StepFailed',
  step,
  attempt,
  error: {
    code: 'BOOTY_E_BUDGET_EXCEEDED',
    message: "the job's token budget of 150 would be exceeded (spent 100, next request needs ~900)",
    retryable: false,
    at: AT,
  },
});

/** A model step's success that cost the given dollars. */
const priced = (event: DomainEvent, costUsd: number): DomainEvent => {
  const e = event as Extract<DomainEvent, { type: 'StepSucceeded' }>;
  const result = e.result as { usage: object };
  return { ...e, result: { ...result, usage: { ...result.usage, costUsd } } } as DomainEvent;
};

/** The same, under a dollar cap. */
const cannotAffordUsd = (step: Step, attempt: number): DomainEvent => ({
  type: 'StepFailed',
  step,
  attempt,
  error: {
    code: 'BOOTY_E_BUDGET_EXCEEDED',
    message:
      "the job's budget of $0.05 would be exceeded (spent $0.0400, the next request may cost up to $0.0300)",
    retryable: false,
    at: AT,
  },
});

const started = (maxTokens: number, budgetStep: number | null = 500) => [
  budgeted(maxTokens, budgetStep),
  ok.prepared(),
  ok.baseline(),
];

const rows: Row[] = [
  {
    name: 'a proposal over the budget parks the job with the proposal kept, nothing applied',
    given: [...started(150), ok.analyzed(100)],
    when: ok.generated(1, 100),
    expect: {
      state: 'budgetExhausted',
      effect: null,
      context: {
        outcome: null,
        changes: [],
        attempts: [{ n: 1, applied: false }],
        usage: { inputTokens: 200 },
      },
    },
  },
  {
    name: 'continue applies the proposal already paid for, with the budget raised once by the step',
    given: [...started(150), ok.analyzed(100), ok.generated(1, 100)],
    when: command('continue'),
    expect: {
      state: 'applying',
      effect: effect('applyChanges', 1),
      context: { settings: { maxTokens: 650, budgetStep: 500 } },
    },
  },
  {
    name: 'a step that cannot afford its request parks, and continue runs the same step again',
    given: [...started(150), ok.analyzed(100), cannotAfford('generate', 1)],
    when: command('continue'),
    expect: { state: 'generating', effect: effect('generate', 1), context: { error: null } },
  },
  {
    name: 'a refine stopped at the budget resumes the same attempt',
    given: [
      ...started(1000),
      ok.analyzed(),
      ok.generated(1),
      ok.applied(1),
      ok.tests(false, 1),
      cannotAfford('refine', 2),
    ],
    when: command('continue'),
    expect: {
      state: 'refining',
      effect: effect('refine', 2),
      context: { attempt: 2, settings: { maxTokens: 1500 } },
    },
  },
  {
    name: 'with no step configured, continue raises the budget by the budget again',
    given: [...started(1000, null), ok.analyzed(), cannotAfford('generate', 1)],
    when: command('continue'),
    expect: {
      state: 'generating',
      effect: effect('generate', 1),
      context: { settings: { maxTokens: 2000 } },
    },
  },
  {
    name: 'with no step configured, every continue adds the budget the job started with, not double',
    given: [
      ...started(1000, null),
      ok.analyzed(),
      cannotAfford('generate', 1),
      command('continue'),
      cannotAfford('generate', 1),
    ],
    when: command('continue'),
    expect: {
      state: 'generating',
      effect: effect('generate', 1),
      context: { settings: { maxTokens: 3000, budgetStep: 1000 } },
    },
  },
  {
    name: 'an analysis over the budget parks; continue goes on to the first attempt',
    given: [...started(50), ok.analyzed(100)],
    when: command('continue'),
    expect: { state: 'generating', effect: effect('generate', 1), context: { attempt: 1 } },
  },
  {
    name: 'the analysis stopped before its request runs again on continue',
    given: [...started(50), cannotAfford('analyze', 0)],
    when: command('continue'),
    expect: { state: 'analyzing', effect: effect('analyze', 0) },
  },
  {
    name: 'a parked job takes no other command: approve leaves it waiting',
    given: [...started(150), ok.analyzed(100), ok.generated(1, 100)],
    when: command('approve'),
    expect: { state: 'budgetExhausted', effect: null },
  },
  {
    name: 'a cancel ends a parked job',
    given: [...started(150), ok.analyzed(100), ok.generated(1, 100)],
    when: cancelled(),
    expect: { state: 'cancelled', effect: null },
  },
  {
    name: "a writer's @booty cancel ends a parked job",
    given: [...started(150), ok.analyzed(100), ok.generated(1, 100)],
    when: command('cancel'),
    expect: { state: 'cancelled', effect: null, context: { outcome: { reason: 'command' } } },
  },
  {
    name: 'a transient failure is still retried, not parked',
    given: [...started(150), ok.analyzed(100)],
    when: failed('generate', true, 1),
    expect: { state: 'generating', effect: effect('generate', 1, retryAt(0)) },
  },
  {
    name: 'under a dollar cap, a step that cannot afford its request parks; continue adds the cap again and leaves no token budget',
    given: [
      requested({ maxUsd: 0.05 }),
      ok.prepared(),
      ok.baseline(),
      ok.analyzed(),
      cannotAffordUsd('generate', 1),
    ],
    when: command('continue'),
    expect: {
      state: 'generating',
      effect: effect('generate', 1),
      context: { error: null, settings: { maxUsd: 0.05, usdAdded: 0.05, maxTokens: null } },
    },
  },
  {
    name: "booty.yml's maxUsd lowers the operator's cap, and each continue adds the lowered cap",
    given: [
      requested({ maxUsd: 0.05 }),
      ok.prepared(3, { maxUsd: 0.02 }),
      ok.baseline(),
      ok.analyzed(),
      cannotAffordUsd('generate', 1),
      command('continue'),
      cannotAffordUsd('generate', 1),
    ],
    when: command('continue'),
    expect: { state: 'generating', effect: effect('generate', 1), context: { settings: { usdAdded: 0.04 } } },
  },
  {
    name: 'a proposal that went over the dollar cap parks with the proposal kept',
    given: [requested({ maxUsd: 0.0001 }), ok.prepared(), ok.baseline(), ok.analyzed()],
    when: priced(ok.generated(1, 100), 0.001),
    expect: { state: 'budgetExhausted', effect: null, context: { changes: [], usage: { costUsd: 0.001 } } },
  },
  {
    name: 'a job requested before budgets parked fails at the budget, as then',
    given: [requestedBeforeControls({ maxTokens: 150 }), ok.prepared(), ok.baseline(), ok.analyzed(100)],
    when: ok.generated(1, 100),
    expect: { state: 'failed', effect: null, context: { outcome: { reason: 'budget' } } },
  },
];

describe('decider: the budget', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));

  it.each([
    ['approve', command('approve')],
    // Not queued for a round after the PR opens, which no one asked for yet.
    ['retry', command('retry')],
    // Its answer would spend what the job no longer has.
    ['a question', outside.question()],
  ])(
    'while the job waits at its budget, %s is not taken (nothing logged; the writer is answered)',
    (_name, when) => expectNotTaken([...started(150), ok.analyzed(100), ok.generated(1, 100)], when),
  );
});
