import type { Logger } from '../log.js';
import { isParked, stateName } from '../machines/job-states.js';
import type { JobObserver } from './supervisor.js';

// One log line per event a job logs, from a child logger carrying the job id, so a job's story can
// be read from the process log as well as from its event stream. A line after a failure carries
// the failure's code and message: "step failed" alone sends an operator to the database.

export function jobLogObserver(log: Logger): JobObserver {
  return {
    changed(change) {
      const { context, status } = change.snapshot;
      const error = /Failed$/.test(change.eventType) ? context.error : null;
      const line = {
        event: change.eventType,
        version: change.version,
        state: stateName(change.snapshot),
        attempt: context.attempt,
        ...(error
          ? { step: error.step, code: error.code, error: error.message, retries: error.retries }
          : {}),
        // Where the job ends, or waits with its PR, it says why.
        ...(status === 'done' || isParked(change.snapshot)
          ? { outcome: context.outcome?.reason ?? null }
          : {}),
      };
      const child = log.child({ jobId: change.jobId, deliveryId: context.request.deliveryId });
      if (error) child.warn(line, `job event: ${error.code}: ${error.message}`);
      else child.info(line, 'job event');
    },
  };
}
