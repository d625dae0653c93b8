import { BootyError } from '../errors.js';
import { catalogue, isEventType, type Step } from './catalogue.js';

// Old logs must keep replaying. A row keeps the type and version it was written with; on read an
// upcaster lifts it, one step at a time, to the catalogue's current shape. The first logs (M1)
// stored XState's own events, `xstate.done.actor.<id>` with the result under `output`: they are
// lifted to StepSucceeded and StepFailed here, and nowhere else knows they existed.

/**
 * Bump when the job machine's states or transitions change. Stored in every row's metadata.
 * Machine 4 stops refining on a failure class no attempt can fix; its transitions read the class
 * the event recorded, so a log from before (no class) folds exactly as it did.
 * Machine 5 adds the loop's controls: a stall stops early, a job that gives up escalates, a plan
 * may wait for approval (`awaitingApproval`), and the budget parks (`budgetExhausted`). A job
 * requested before them (JobRequested v3, lifted with `loopControls: false`) neither stalls, parks,
 * escalates nor waits for a plan, even where its logged config holds `escalate` or `approval`
 * (machine 4 logged those keys before they meant anything). So old logs fold as they were written
 * (test/fixtures/legacy-logs/m4-*).
 * Machine 6 counts new quality findings in the stall's measure: an attempt that fixes lint findings
 * one by one improves. A job requested before (JobRequested v4, lifted with `qualityProgress:
 * false`) is measured as machine 5 measured it (test/fixtures/legacy-logs/m5-quality-stall.db).
 * Machine 7 stops without refining on a run that exited 0 and named no failure (class
 * `unreadable`, outcome `tests-unreadable`), and before the model on a baseline booty could read
 * nothing from (broken `tests-unreadable`). Both read what the event recorded, so a log from before
 * (no such class or reason) folds as it was written.
 * Machine 8 makes booty a collaborator: a writer's `@booty` starts a job where no label did, a
 * question is answered in a round of its own (`answeringQuestion`, and `answered` for a job that
 * only answered), a job may work on a pull request a person opened, red CI on a ready pull request
 * is re-run before it is demoted, `stop` is answered and leaves a ready pull request alone, and
 * `retry` with nothing to retry is not taken. A job requested before (JobRequested v5, lifted with
 * `collaborator: false`) folds as machine 7 folded it.
 * Machine 9 reads a pull request's draft state only from the deliveries that change it
 * (`converted_to_draft`, `ready_for_review`, `reopened`): the delivery of booty's own push can come
 * after booty made the pull request ready and still say draft, and machine 8 took that stale echo
 * for a person's demotion. A job requested before (JobRequested v7, lifted with `draftByAction:
 * false`) folds as machine 8 folded it.
 * Machine 9 also takes `@booty apply suggestions`: a round of its own (`applyingSuggestions`) that
 * applies the pull request's suggestion blocks as written, no model and no tests, and pushes them in
 * its answer. Only a CommandReceived `apply` leads there, which no earlier log holds: old logs fold
 * as they were written.
 */
export const MACHINE_VERSION = 9;

/**
 * A state a row recorded, in the words of today's machine. Machine 3 (the PR conversation) keeps a
 * job with its PR: the promotion runs in `promoting` (it was `prOpened`), and a draft left open, for
 * failing tests or a human's review, waits in `prOpened` (it ended in `failed` or `heldAsDraft`).
 * So a log from before still verifies, and folds to where such a job would wait today.
 */
export function recordedStateNow(
  state: string | null,
  machineVersion: number | undefined,
  row: { type: string; data: Record<string, unknown> },
): string | null {
  if (state === null || (machineVersion ?? 1) >= 3) return state;
  if (state === 'prOpened') return 'promoting';
  if (state === 'heldAsDraft') return 'prOpened';
  if (state === 'failed' && row.type === 'StepSucceeded' && row.data.step === 'openPr') return 'prOpened';
  return state;
}

export interface StoredShape {
  type: string;
  version: number;
  data: Record<string, unknown>;
  /** The row's metadata: old step rows kept their attempt there. */
  meta?: { attempt?: number };
}

type Upcaster = (row: StoredShape) => StoredShape;

/** The machine's invoke ids of M1, by the step the log names now. */
const LEGACY_INVOKES: Record<string, Step> = {
  prepare: 'prepare',
  runBaseline: 'baseline',
  analyze: 'analyze',
  generate: 'generate',
  refine: 'refine',
  applyChanges: 'apply',
  runTests: 'test',
  openPr: 'openPr',
  promotePr: 'promote',
};

/**
 * v2 test runs named only their failing tests. v3 records every case; an old run becomes one whose
 * cases are its named failures, read from the text, and whose verdict is what it decided then.
 */
function testRunV3(output: Record<string, any>): Record<string, unknown> {
  if ('cases' in output) return output;
  const failing: string[] = output.failingTests ?? [];
  const exit = output.exitCode;
  return {
    ...output,
    ran: exit !== 126 && exit !== 127,
    source: 'text',
    cases: failing.map((id) => ({
      id,
      file: null,
      name: id.split(/ > |::/).at(-1) ?? id,
      status: 'failed',
      durationMs: null,
      message: null,
    })),
    loadErrors: [],
    totals: { total: failing.length, passed: 0, failed: failing.length, errored: 0, skipped: 0 },
    broken: null,
    verdict: output.passed ? 'pass' : 'fail',
    reasons: [],
    changedTests: output.addedTestsFailing ?? [],
  };
}

/** An M1 row of XState's `xstate.done.actor.<id>` or `xstate.error.actor.<id>`, in booty's words. */
function liftMachineRow(row: StoredShape): StoredShape | null {
  const m = /^xstate\.(done|error)\.actor\.(\w+)$/.exec(row.type);
  const step = m && LEGACY_INVOKES[m[2]!];
  if (!m || !step) return null;
  const attempt = row.meta?.attempt ?? 0;
  if (m[1] === 'done') {
    let result = (row.data.output ?? {}) as Record<string, any>;
    if (step === 'baseline' || step === 'test') result = testRunV3(result);
    return { type: 'StepSucceeded', version: 1, data: { step, attempt, result } };
  }
  const { code, message, retryable, at } = (row.data.error ?? {}) as Record<string, unknown>;
  return {
    type: 'StepFailed',
    version: 1,
    data: {
      step,
      attempt,
      error: {
        code: typeof code === 'string' ? code : 'BOOTY_E_EFFECT_FAILED',
        message: typeof message === 'string' ? message : 'unknown error',
        retryable: retryable === true,
        at: typeof at === 'number' ? at : 0,
      },
    },
  };
}

/** upcasters[type][v] turns version v of that event into the next shape. */
const upcasters: Record<string, Record<number, Upcaster>> = {
  JobRequested: {
    // v1 stored the repository as "owner/name" and the issue as a bare number with a separate title.
    1: ({ data }) => {
      const { repository, issueNumber, issueTitle, issueBody, issueUrl, ...rest } = data as Record<
        string,
        any
      >;
      const [owner, name] = String(repository).split('/');
      return {
        type: 'JobRequested',
        version: 2,
        data: {
          ...rest,
          repo: { owner, name },
          issue: { number: issueNumber, title: issueTitle ?? '', body: issueBody ?? '', url: issueUrl ?? '' },
          settings: rest.settings ?? {},
        },
      };
    },
    // v4 says whether the refine loop's controls apply: a job requested before them ran without.
    3: ({ data }) => ({ type: 'JobRequested', version: 4, data: { ...data, loopControls: false } }),
    // v5 says whether new quality findings count as improvement: a job requested before did not.
    4: ({ data }) => ({ type: 'JobRequested', version: 5, data: { ...data, qualityProgress: false } }),
    // v6 says whether booty's rules as a collaborator apply: a job requested before ran without.
    5: ({ data }) => ({ type: 'JobRequested', version: 6, data: { ...data, collaborator: false } }),
    // v7 names the repository's forge: every job requested before GitLab was served was GitHub's.
    6: ({ data }) => ({
      type: 'JobRequested',
      version: 7,
      data: { ...data, repo: { forge: 'github', ...(data.repo as Record<string, unknown>) } },
    }),
    // v8 says whether a push's delivery is read for the draft state: a job requested before read it.
    7: ({ data }) => ({ type: 'JobRequested', version: 8, data: { ...data, draftByAction: false } }),
  },
};

/** The row in its current shape: a catalogue type at its current version. */
export function upcast(row: StoredShape, where: { stream: string; seq: number }): StoredShape {
  let current = row;
  for (;;) {
    const lifted = liftMachineRow(current);
    if (lifted) {
      current = lifted;
      continue;
    }
    if (!isEventType(current.type)) {
      throw new BootyError('BOOTY_E_EVENT_UNKNOWN_TYPE', { ...where, type: current.type });
    }
    const known = catalogue[current.type].version;
    if (current.version === known) return current;
    if (current.version > known) {
      throw new BootyError('BOOTY_E_EVENT_UNKNOWN_VERSION', {
        ...where,
        type: current.type,
        version: current.version,
        known,
      });
    }
    const step = upcasters[current.type]?.[current.version];
    // No upcaster: that version's shape is the next one's.
    current = step ? step(current) : { ...current, version: current.version + 1 };
  }
}
