import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Vitest starts the files it has timed before longest first, but a fresh clone (CI) has no timings,
// and then it starts the largest files first: a short file of 50 jobs on three workers would start
// a third of the way in. These files, the longest in a whole run (seconds each took in `npm test`,
// three workers on two cores), start first, longest first; the rest keep Vitest's order. The
// corpus counts the install of its runners, which a fresh clone does first (mostly network waits).
// The crash files' figures are their last times scaled by the CPU their code-cached children saved
// (crash 0.71, serve-crash-rounds 0.62, refine-crash 0.64), not yet timed in a whole run.
const COSTS: Record<string, number> = {
  'test/eval/eval-builtin.system.test.ts': 195,
  'test/engine/many-workers.test.ts': 164,
  // Both forges' whole table, with 122 baseline runs instead of 174 (cases on one repository share one).
  'test/corpus/corpus.test.ts': 180,
  'test/engine/crash.test.ts': 119,
  'test/e2e/demo-conversation.test.ts': 68,
  'test/e2e/serve-crash-rounds.test.ts': 33,
  'test/engine/job-leases.test.ts': 51,
  'test/e2e/demo.test.ts': 37,
  'test/e2e/demo-gitlab.test.ts': 31,
  'test/e2e/hostile/orphans.test.ts': 33,
  'test/e2e/refine-crash.test.ts': 20,
  'test/e2e/gate.test.ts': 19, // its tests at once: 0.65 of before
  'test/packaging/pack.test.ts': 23,
  'test/e2e/serve-crash.test.ts': 20,
  'test/e2e/gitlab-serve-crash.test.ts': 20,
};

export class CostlyFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const cost = (spec: TestSpecification) =>
      COSTS[path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/')] ?? 0;
    return ordered.sort((a, b) => cost(b) - cost(a));
  }
}
