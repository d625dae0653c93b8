import fs from 'node:fs';
import { replayInspection } from '../engine/replay-inspection.js';
import { assertVerified, readTimeline, type Timeline } from '../engine/timeline.js';
import { BootyError } from '../errors.js';
import { startInspectorServer } from '../gateway/inspector-server.js';
import { sendToRelay } from '../gateway/relay-client.js';
import { type LogEntry, readJobLog } from '../store/job-log.js';
import { renderJobView } from '../views/job-view.js';
import { timelineToJson } from '../views/timeline-json.js';
import { type Command, type Io, intOption, type Values } from './command.js';
import { formatDelta, table } from './format.js';
import { dbHelp, dbOption, openExistingStore } from './store-option.js';

export const replayCommand: Command = {
  name: 'replay',
  usage: [
    'Usage: booty replay <jobId> [--verify] [--json | --html FILE] [--until N] [--db PATH|URL]',
    '       booty replay <jobId> --inspect [--port N | --relay URL] [--once] [--export FILE] [--until N]',
    '',
    "Folds the job's event log through the machine (no effect runs) and prints every step:",
    'seq, time, delta, event, the state reached, the attempt, and tokens when the step used the model.',
    '',
    '  --verify       check the hash chain of the log and every recorded state against the fold; exit 1',
    '                 at the first edited row or divergence',
    '  --json         print { jobId, verified, finalState, events: [{ seq, type, state, at, ... }] }',
    "  --html FILE    write one self-contained page: the machine with the job's path drawn on it, the",
    "                 timeline and each attempt's tests; it needs nothing from the network",
    '  --until N      stop after event N and print the snapshot there (state and context)',
    '  --inspect      play the log into the machine with inert effects (nothing runs) and serve it',
    '                 to the Stately inspector: prints the URL to open; Ctrl-C stops',
    '  --port N       the port for --inspect (default: any free port)',
    '  --relay URL    send to an inspector relay that is already running (e.g. ws://localhost:8080)',
    '                 instead of serving, then exit',
    '  --once         with --inspect: exit once the first viewer has been sent the whole replay',
    '  --export FILE  write the inspector messages as JSON lines, to share or load later',
    dbHelp,
  ].join('\n'),
  options: {
    ...dbOption,
    verify: { type: 'boolean' },
    json: { type: 'boolean' },
    html: { type: 'string' },
    until: { type: 'string' },
    inspect: { type: 'boolean' },
    port: { type: 'string' },
    relay: { type: 'string' },
    once: { type: 'boolean' },
    export: { type: 'string' },
  },
  positionals: ['jobId'],
  async run({ values, positionals }, io) {
    const until = intOption('replay', 'until', values.until);
    const inspecting = checkInspectFlags(values);
    const store = await openExistingStore(values, io.env);
    let timeline: Timeline;
    let events: LogEntry[] = [];
    try {
      timeline = await readTimeline(store, positionals[0]!, until);
      if (inspecting) events = await readJobLog(store, positionals[0]!);
    } finally {
      await store.close();
    }
    if (inspecting) {
      if (values.verify) assertVerified(timeline);
      return inspect(timeline, events, until, values, io);
    }
    if (values.html !== undefined) {
      fs.writeFileSync(values.html as string, renderJobView(timeline));
      io.out(`wrote ${values.html}: open it in any browser`);
    } else if (values.json) io.out(JSON.stringify(timelineToJson(timeline, until !== undefined), null, 2));
    else io.out(render(timeline, until !== undefined));
    if (values.verify) assertVerified(timeline);
    return 0;
  },
};

/** Whether inspector output is asked for; usage errors for flags that do not go together. */
function checkInspectFlags(values: Values): boolean {
  const usage = (reason: string) => new BootyError('BOOTY_E_USAGE', { command: 'replay', reason });
  if (!values.inspect) {
    for (const flag of ['port', 'relay', 'once'] as const)
      if (values[flag] !== undefined) throw usage(`--${flag} needs --inspect`);
  }
  if (values.port !== undefined && values.relay !== undefined)
    throw usage('--port serves the inspector here, --relay sends to one elsewhere: pick one');
  const inspecting = Boolean(values.inspect) || values.export !== undefined;
  if (inspecting && values.json)
    throw usage('--json prints the timeline; it does not go with --inspect or --export');
  return inspecting;
}

async function inspect(
  timeline: Timeline,
  events: LogEntry[],
  until: number | undefined,
  values: Values,
  io: Io,
): Promise<number> {
  const port = portOption(values.port);
  const { messages } = await replayInspection(events, { until });
  const verdict = timeline.tampered
    ? `TAMPERED at event ${timeline.tampered.seq}: ${timeline.tampered.reason}`
    : timeline.verified
      ? 'verified'
      : `DIVERGED at event ${timeline.divergence!.seq}: the inspector shows what the machine does now`;
  io.out(
    `job ${timeline.jobId}  ${timeline.repo}#${timeline.issue}: ${timeline.entries.length} events to ${timeline.finalState} (${verdict}), ${messages.length} inspector messages`,
  );
  if (values.export !== undefined) {
    const file = values.export as string;
    fs.writeFileSync(file, messages.map((m) => `${m}\n`).join(''));
    io.out(`wrote ${file}`);
  }
  if (!values.inspect) return 0;
  if (values.relay !== undefined) {
    await sendToRelay(values.relay as string, messages);
    io.out(`sent to the inspector relay at ${values.relay}`);
    return 0;
  }
  const server = await startInspectorServer({ port, localView: renderJobView(timeline) });
  try {
    for (const m of messages) server.publish(m);
    io.out(
      `inspector: open ${server.url}  (${values.once ? 'exits once a viewer has the replay' : 'Ctrl-C to stop'}); it embeds stately.ai's inspector, and offline falls back to ${server.url}view`,
    );
    await (values.once ? server.viewed() : interrupted());
  } finally {
    await server.close();
  }
  return 0;
}

function portOption(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new BootyError('BOOTY_E_USAGE', {
      command: 'replay',
      reason: `--port must be a port number from 0 to 65535, not ${JSON.stringify(value)}`,
    });
  return n;
}

function interrupted(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
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
  const verdict = t.tampered
    ? `TAMPERED at event ${t.tampered.seq}: ${t.tampered.reason}`
    : t.verified
      ? 'verified: the hash chain holds and every recorded state matches the fold'
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
