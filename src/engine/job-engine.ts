import type { foldJob, initialSnapshot } from '../machines/fold.js';
import type { JobRunner, jobUpdate } from './job-runner.js';

// What runs a job: the runner, and the fold of its log through the xstate machine. It loads with
// the first job this process touches (requested, woken, resumed at boot), not at start-up: an idle
// serve holds neither xstate nor the machine.

export interface JobEngine {
  JobRunner: typeof JobRunner;
  jobUpdate: typeof jobUpdate;
  foldJob: typeof foldJob;
  initialSnapshot: typeof initialSnapshot;
}

let loading: Promise<JobEngine> | undefined;

export function loadJobEngine(): Promise<JobEngine> {
  loading ??= Promise.all([import('./job-runner.js'), import('../machines/fold.js')]).then(
    ([runner, fold]) => ({
      JobRunner: runner.JobRunner,
      jobUpdate: runner.jobUpdate,
      foldJob: fold.foldJob,
      initialSnapshot: fold.initialSnapshot,
    }),
  );
  return loading;
}
