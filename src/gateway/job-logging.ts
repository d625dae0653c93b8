import type { JobObserver } from '../actors/supervisor.js';
import type { Logger } from '../log.js';
import { stateName } from '../machines/fold.js';

// One log line per event a job logs, from a child logger carrying the job id, so a job's story can
// be read from the process log as well as from its event stream.

export function jobLogObserver(log: Logger): JobObserver {
  return {
    changed(change) {
      const { context, status } = change.snapshot;
      log.child({ jobId: change.jobId, deliveryId: context.request.deliveryId }).info(
        {
          event: change.eventType,
          version: change.version,
          state: stateName(change.snapshot),
          attempt: context.attempt,
          ...(status === 'done' ? { outcome: context.outcome?.reason ?? null } : {}),
        },
        'job event',
      );
    },
  };
}
