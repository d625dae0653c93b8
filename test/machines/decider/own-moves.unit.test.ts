import { describe, it } from 'vitest';
import {
  beforeCollaborator,
  beforeDraftByAction,
  check,
  effect,
  happy,
  ok,
  outside,
  type Row,
} from './decider.js';

// GitHub tells booty of its own moves too, and its webhook can come before the move's result: the
// echo of a demotion booty is making is not a person holding the PR draft.

// Before machine 8, red CI on a ready PR demotes it at once (since, a re-run comes first).
const demoting = () => beforeCollaborator([...happy.promoted(), outside.ciDone(), ok.ci('failed')]);
const echo = { ...outside.draft(true), sender: 'booty-bot' };

const rows: Row[] = [
  {
    name: "the echo of booty's demotion, before its result: draft, held by nobody",
    given: demoting(),
    when: echo,
    expect: {
      state: 'demoting',
      effect: effect('demotePr', 1),
      context: { pr: { draft: true }, conversation: { heldDraft: null } },
    },
  },
  {
    name: 'CI green on the fix of a PR booty demoted: ready again',
    given: [
      ...demoting(),
      echo,
      ok.demoted(),
      ok.rerun(),
      outside.ciDone(),
      ok.ci('failed'),
      ok.synced(2),
      ok.generated(2),
      ok.applied(2),
      ok.tests(true, 2),
      ok.answered(2, 'd'.repeat(40)),
    ],
    when: ok.promoted(2),
    expect: { state: 'promoted', effect: null, context: { pr: { draft: false } } },
  },
  {
    name: "the delivery of booty's own push, come after the promotion and still saying draft: the PR stays ready",
    given: happy.promoted(),
    when: outside.staleDraftPush(),
    expect: {
      state: 'promoted',
      effect: null,
      context: { pr: { draft: false }, conversation: { heldDraft: null } },
    },
  },
  {
    name: 'a person converting the ready PR to draft is still a demotion',
    given: happy.promoted(),
    when: outside.draft(true),
    expect: {
      state: 'prOpened',
      effect: null,
      context: { pr: { draft: true }, conversation: { heldDraft: 'maintainer' } },
    },
  },
  {
    name: 'before machine 9, that stale push delivery folds as it ran: back to draft',
    given: beforeDraftByAction(happy.promoted()),
    when: outside.staleDraftPush(),
    expect: { state: 'prOpened', effect: null, context: { pr: { draft: true } } },
  },
];

describe("decider: GitHub's word of booty's own moves", () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));
});
