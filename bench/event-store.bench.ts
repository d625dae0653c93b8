// event-store: appends through EventStore against raw better-sqlite3 inserts in the same mode,
// and 1,000 recorded jobs of 30 events checked and folded back into snapshots as boot does it:
// the hash chain walked, every row lifted and checked against the catalogue, then one fold that
// checks every recorded state (`booty replay --verify`'s check, src/engine/log-check.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { checkLog } from '../src/engine/log-check.js';
import { foldChecked } from '../src/machines/fold.js';
import { migrations } from '../src/store/sqlite/migrations.js';
import { SqliteEventStore } from '../src/store/sqlite/sqlite-event-store.js';
import { type BenchResult, ratio, round } from './bench-result.js';
import { EVENTS_PER_JOB, recordJobs } from './recorded-jobs.js';

const APPENDS = 100_000;
// Each pass appends 100,000 events; the best of three passes counts.
const STREAMS = 1_000;
const JOBS = 1_000;

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'booty-bench-'));
const payload = {
  step: 'test',
  attempt: 1,
  result: { at: 1_700_000_000_000, passed: true, durationMs: 1234, failingTests: [] as string[] },
};

/** This process's CPU time so far, in ms (one thread works here). */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function benchStoreAppends(): Promise<number> {
  const store = new SqliteEventStore(path.join(tmp(), 'store.db'));
  const versions = new Array<number>(STREAMS).fill(0);
  const started = cpuMs();
  for (let i = 0; i < APPENDS; i++) {
    const s = i % STREAMS;
    await store.append(`stream-${s}`, versions[s]!, [
      { type: 'StepSucceeded', data: payload, state: 'testing', meta: { attempt: 1 } },
    ]);
    versions[s]! += 1;
  }
  const seconds = (cpuMs() - started) / 1000;
  await store.close();
  return APPENDS / seconds;
}

function benchRawInserts(): number {
  // Same schema, same journal and sync mode, a plain prepared INSERT per event in autocommit. The
  // same schema is every migration's: the store's table has the hash column and the index on `at`
  // (migration 7), and each index costs every insert its upkeep.
  const db = new Database(path.join(tmp(), 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  for (const migration of migrations) db.exec(migration);
  const insert = db.prepare(
    'INSERT INTO events (stream_id, version, type, schema_version, data, state, meta, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const versions = new Array<number>(STREAMS).fill(0);
  const started = cpuMs();
  for (let i = 0; i < APPENDS; i++) {
    const s = i % STREAMS;
    versions[s]! += 1;
    insert.run(
      `stream-${s}`,
      versions[s],
      'StepSucceeded',
      1,
      JSON.stringify(payload),
      'testing',
      JSON.stringify({ attempt: 1 }),
      Date.now(),
    );
  }
  const seconds = (cpuMs() - started) / 1000;
  db.close();
  return APPENDS / seconds;
}

export default async function run(): Promise<BenchResult[]> {
  // Interleaved and best of three, so neither side gets the cold start or a noisy neighbour alone;
  // in CPU time, as the fold: both sides are this thread's work (better-sqlite3 writes
  // synchronously, and a WAL commit at NORMAL waits on no disk), and on a shared machine their wall
  // time mostly measures the other processes.
  let raw = 0;
  let ours = 0;
  for (let i = 0; i < 3; i++) {
    raw = Math.max(raw, benchRawInserts());
    ours = Math.max(ours, await benchStoreAppends());
  }

  const file = path.join(tmp(), 'fold.db');
  const recording = new SqliteEventStore(file);
  const jobIds = await recordJobs(recording, JOBS);
  await recording.close();
  const store = new SqliteEventStore(file);

  // Best of three passes each, read-only first, as the append figures are, in CPU time.
  let readMs = Number.POSITIVE_INFINITY;
  let foldMs = Number.POSITIVE_INFINITY;
  let done = 0;
  for (let pass = 0; pass < 3; pass++) {
    let started = cpuMs();
    for (const id of jobIds) await store.readStream(id);
    readMs = Math.min(readMs, cpuMs() - started);

    started = cpuMs();
    done = 0;
    // As a restart does: every unfinished job, parked or not, checked as `--verify` checks it.
    for (const id of jobIds) {
      const checked = checkLog(id, await store.readStream(id), foldChecked);
      if (checked.damage) throw checked.damage;
      if (checked.snapshot.status === 'done' || checked.snapshot.hasTag('waiting')) done++;
    }
    foldMs = Math.min(foldMs, cpuMs() - started);
  }
  await store.close();
  if (done !== jobIds.length)
    throw new Error(`only ${done} of ${jobIds.length} folds reached a final or waiting state`);

  return [
    {
      name: 'event-store',
      metric: 'append',
      value: Math.round(ours),
      baseline: Math.round(raw),
      ratio: ratio(ours, raw),
      unit: 'events per CPU second',
      goal: 'ratio >= 0.7',
    },
    {
      name: 'event-store',
      metric: 'fold',
      value: round(foldMs),
      baseline: round(readMs),
      ratio: ratio(foldMs, readMs),
      unit: `CPU ms for ${jobIds.length} jobs x ${EVENTS_PER_JOB} events checked and folded as boot does (baseline: reading them only)`,
      goal: 'ratio <= 2.5',
    },
  ];
}
