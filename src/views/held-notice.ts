import { progressMarker } from '../forges/markers.js';

// What a job's issue says while the per-day dollar cap holds it: in the job's progress comment,
// so it is said once (the comment is found again by its marker) and gives way to the job's
// progress when it starts.

export interface DailyCapHold {
  jobId: string;
  /** What the installation's jobs spent since 00:00 UTC, in dollars. */
  spentUsd: number;
  capUsd: number;
  /** When the day rolls over (epoch ms): the job starts then. */
  resumesAt: number;
}

export function renderDailyCapHold(hold: DailyCapHold): string {
  const at = new Date(hold.resumesAt)
    .toISOString()
    .replace(/:\d\d\.\d{3}Z$/, ' UTC')
    .replace('T', ' ');
  return [
    progressMarker(hold.jobId),
    '### ⏸️ Waiting for tomorrow’s budget',
    `booty’s jobs here spent $${hold.spentUsd.toFixed(4)} on the model today, which reaches the daily cap of $${hold.capUsd} (\`BOOTY_MAX_USD_PER_DAY\`). This job has not started: it starts at ${at}, when the day rolls over, or as soon as booty runs with a higher cap.`,
  ].join('\n\n');
}
