import { assertVerified, readTimeline, type Timeline } from '../actors/timeline.js';
import { type Command, dbHelp, dbOption, intOption, openExistingStore } from './command.js';
import { formatDelta, table } from './format.js';

export const replayCommand: Command = {
  name: 'replay',
  summary: "fold a job's log and print its timeline",
  usage: [
    'Usage: booty replay <jobId> [--verify] [--json] [--until N] [--db PATH]',
    '',
    "Folds the job's event log through the machine (no effect runs) and prints every step:",
    'seq, time, delta, event, the state reached, the attempt, and tokens when the step used the model.',
    '',
    '  --verify       check every recorded state against the fold; exit 1 at the first divergence',
    '  --json         print { jobId, verified, finalState, events: [{ seq, type, state, at, ... }] }',
    '  --until N      stop after event N and print the snapshot there (state and context)',
    dbHelp,
  ].join('\n'),
  options: { ...dbOption, verify: { type: 'boolean' }, json: { type: 'boolean' }, until: { type: 'string' } },
  positionals: ['jobId'],
  async run({ values, positionals }, io) {
    const until = intOption('replay', 'until', values.until);
    const store = openExistingStore(values, io.env);
    let timeline: Timeline;
    try {
      timeline = readTimeline(store, positionals[0]!, until);
    } finally {
      store.close();
    }
    if (values.json) io.out(JSON.stringify(toJson(timeline, until !== undefined), null, 2));
    else io.out(render(timeline, until !== undefined));
    if (values.verify) assertVerified(timeline);
    return 0;
  },
};

function toJson(t: Timeline, withSnapshot: boolean) {
  return {
    jobId: t.jobId,
    verified: t.verified,
    finalState: t.finalState,
    events: t.entries.map((e) => ({
      seq: e.seq,
      type: e.type,
      state: e.state,
      at: new Date(e.at).toISOString(),
      attempt: e.attempt,
      ...(e.tokens ? { tokens: e.tokens } : {}),
    })),
    ...(withSnapshot ? { snapshot: { state: t.finalState, context: t.snapshot.context } } : {}),
  };
}

function render(t: Timeline, withSnapshot: boolean): string {
  const rows = t.entries.map((e) => [
    String(e.seq),
    new Date(e.at).toISOString(),
    formatDelta(e.deltaMs),
    e.label.length > 60 ? `${e.label.slice(0, 57)}...` : e.label,
    e.state,
    String(e.attempt),
    e.tokens ? `${e.tokens.input}/${e.tokens.output}/${e.tokens.cacheRead}/${e.tokens.cacheWrite}` : '',
  ]);
  const verdict = t.verified
    ? 'verified: every recorded state matches the fold'
    : `DIVERGED at event ${t.divergence!.seq}: recorded ${t.divergence!.recorded}, fold reaches ${t.divergence!.folded}`;
  const lines = [
    `job ${t.jobId}  ${t.repo}#${t.issue}  ${t.finalState}  (${verdict})`,
    '',
    table(['SEQ', 'TIME', 'DELTA', 'EVENT', 'STATE', 'ATTEMPT', 'TOKENS in/out/cache-r/cache-w'], rows),
  ];
  if (withSnapshot)
    lines.push(
      '',
      `snapshot after event ${t.entries.length}:`,
      JSON.stringify({ state: t.finalState, context: t.snapshot.context }, null, 2),
    );
  return lines.join('\n');
}
