import { describe, it } from 'vitest';
import { check, effect, happy, ok, outside, type Row } from './decider.js';

// GitHub tells booty of its own moves too, and its webhook can come before the move's result: the
// echo of a demotion booty is making is not a person holding the PR draft.

/** CI red on the ready PR: booty turns it back to draft. */
const demoting = () => [...happy.promoted(), outside.ciDone(), ok.ci('failed')];
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
];

describe("decider: GitHub's word of booty's own moves", () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));
});
