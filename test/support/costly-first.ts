import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Vitest starts the files it has timed before longest first, but a fresh clone (CI) has no timings,
// and then it starts the largest files first: a short file of 50 jobs on three workers would start
// last and run alone at the end. These files, the costliest measured (seconds of CPU, one file at a
// time; README "Developing"), start first, costliest first; the rest keep Vitest's order.
const COSTS: Record<string, number> = {};

export class CostlyFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const cost = (spec: TestSpecification) =>
      COSTS[path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/')] ?? 0;
    return ordered.sort((a, b) => cost(b) - cost(a));
  }
}
