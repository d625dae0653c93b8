import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBootyError } from '../../src/errors.js';
import { brokenAt } from '../../src/store/hash-chain.js';
import { readMigrations } from '../../src/store/postgres/migrate.js';
import { PostgresEventStore } from '../../src/store/postgres/postgres-event-store.js';
import type { NewEvent } from '../../src/store/records.js';
import { freshDatabase, freshSchema, onDatabase } from '../support/postgres-database.js';
import { delivery } from './contract-target.js';
import { deliveryLogContract } from './delivery-log-contract.js';
import { eventLogContract } from './event-log-contract.js';
import { jobIndexContract } from './job-index-contract.js';

// The PostgreSQL store on a real server (one per test run, this file's own database, a schema per
// test): the contracts every store keeps, then what only a server database with many connections
// can get wrong: racing pools, readers following the log while it is written, migrations at once.

let database: string;
const opened: PostgresEventStore[] = [];
const open = (url: string) => {
  const store = new PostgresEventStore(url);
  opened.push(store);
  return store;
};

beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

const postgres = {
  async make() {
    const url = await freshSchema(database);
    return { store: open(url), reopen: () => open(url) };
  },
};
eventLogContract('PostgreSQL', postgres);
jobIndexContract('PostgreSQL', postgres);
deliveryLogContract('PostgreSQL', postgres);

const ev = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ type, data, state: 'x' });
describe('PostgresEventStore', () => {
  it('given five stores opening one empty database at once, then the schema is migrated once and the rest find it done', async () => {
    const url = await freshSchema(database);
    // A migration that ran twice would fail: its CREATE TABLEs have no IF NOT EXISTS.
    const stores = await Promise.all(Array.from({ length: 5 }, () => PostgresEventStore.open(url)));
    opened.push(...stores);
    opened.push(await PostgresEventStore.open(url));
    const rows = await onDatabase(
      url,
      async (c) => (await c.query('SELECT version, name FROM schema_migrations')).rows,
    );
    expect(rows).toEqual((await readMigrations()).map((m) => ({ version: m.version, name: m.name })));
    expect(await stores[4]!.append('s', 0, [ev('E')])).toEqual({ version: 1, position: 1 });
  });

  it('given two pools appending to one stream at the same version, then in every round exactly one wins', async () => {
    const url = await freshSchema(database);
    const [a, b] = [open(url), open(url)];
    await a.append('r', 0, [ev('R0')]);
    const rounds = 40;
    for (let v = 1; v <= rounds; v++) {
      const results = await Promise.allSettled([
        a.append('r', v, [ev('A', { v })], { job: job('a', v) }),
        b.append('r', v, [ev('B', { v })], { job: job('b', v) }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(isBootyError(lost.reason, 'BOOTY_E_VERSION_CONFLICT')).toBe(true);
    }
    const stream = await a.readStream('r');
    expect(stream.map((e) => e.version)).toEqual(Array.from({ length: rounds + 1 }, (_, i) => i + 1));
    // The winners wrote the read model, the losers nothing; the chain runs through both pools' rows.
    expect((await b.getJob('r'))?.version).toBe(rounds + 1);
    expect((await a.getJob('r'))?.state).toBe(`${stream.at(-1)!.type === 'A' ? 'a' : 'b'}${rounds}`);
    expect(brokenAt(stream)).toBeNull();
  });

  it('given many appenders on their own connections, then a reader following readAll never sees a position fill in behind it', async () => {
    const url = await freshSchema(database);
    const writers = Array.from({ length: 6 }, () => open(url));
    const reader = open(url);
    const perWriter = 60;
    let writing = true;
    const seen: number[] = [];
    const follow = (async () => {
      let after = 0;
      for (;;) {
        const done = !writing;
        const batch = await reader.readAll({ after, limit: 25 });
        for (const e of batch) {
          // Every event the reader is given lies beyond the last it passed.
          expect(e.position).toBeGreaterThan(after);
          after = e.position;
          seen.push(e.position);
        }
        if (done && batch.length === 0) return;
      }
    })();
    await Promise.all(
      writers.map(async (w, n) => {
        for (let i = 0; i < perWriter; i++) {
          // A mix: single events, batches, each with its job and a delivery, and a shared stream.
          const stream = `w${n}-${i % 5}`;
          const version = await w.streamVersion(stream);
          await w.append(stream, version, i % 3 === 0 ? [ev('X'), ev('Y')] : [ev('X')], {
            // One unfinished job per issue (migration 002): each stream is its own issue's job.
            job: job(`${n}`, i, n * 5 + (i % 5) + 1),
            delivery: delivery(`d-${n}-${i}`, stream),
          });
          for (;;) {
            try {
              await w.append('shared', await w.streamVersion('shared'), [ev('S', { n, i })]);
              break;
            } catch (err) {
              if (!isBootyError(err, 'BOOTY_E_VERSION_CONFLICT')) throw err;
            }
          }
        }
      }),
    );
    writing = false;
    await follow;
    const all = (await reader.readAll()).map((e) => e.position);
    // Nothing was skipped: the positions the reader passed are every position, with no holes.
    expect(seen).toEqual(all);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    expect(all.length).toBe(writers.length * (perWriter + perWriter + Math.ceil(perWriter / 3)));
  });

  it('given one delivery recorded by two pools at once, then one records it and the other is told it was seen', async () => {
    const url = await freshSchema(database);
    const [a, b] = [open(url), open(url)];
    for (let i = 0; i < 30; i++) {
      const both = await Promise.all([
        a.recordDeliveries([delivery(`same-${i}`), delivery(`a-${i}`)]),
        b.recordDeliveries([delivery(`b-${i}`), delivery(`same-${i}`)]),
      ]);
      expect([both[0]![0], both[1]![1]].sort()).toEqual([false, true]);
      expect([both[0]![1], both[1]![0]]).toEqual([true, true]);
    }
    // The same with the delivery riding on an append: one job starts, the other append is a duplicate.
    const appended = await Promise.all(
      [a, b].map((s, i) =>
        s.append(`job-${i}`, 0, [ev('JobRequested')], {
          job: job('preparing', 0),
          delivery: delivery('start'),
        }),
      ),
    );
    expect(appended.filter((r) => r.duplicate).length).toBe(1);
    expect((await a.listJobs()).length).toBe(1);
    expect((await b.readAll()).length).toBe(1);
  });

  it('given two workers starting jobs for one issue with different deliveries, then one commits and the other is refused naming the issue, writing nothing', async () => {
    const url = await freshSchema(database);
    const [a, b] = [open(url), open(url)];
    const results = await Promise.allSettled(
      [a, b].map((s, i) =>
        s.append(`job-${i}`, 0, [ev('JobRequested')], {
          job: job('preparing', 0, 9),
          delivery: delivery(`d-${i}`, `job-${i}`),
        }),
      ),
    );
    const refused = results.filter((r) => r.status === 'rejected').map((r) => r.reason as Error);
    expect(refused).toHaveLength(1);
    expect(isBootyError(refused[0], 'BOOTY_E_ISSUE_HAS_JOB')).toBe(true);
    expect(refused[0]!.message).toContain('issue o/r#9 has an unfinished job already');
    expect((await a.listJobs()).length).toBe(1);
    expect((await a.readAll()).length).toBe(1);
    // Nothing of the refused append stays, its delivery included: it can come again.
    expect((await a.recordDeliveries([delivery('d-0', null), delivery('d-1', null)])).sort()).toEqual([
      false,
      true,
    ]);
    // A finished job leaves the issue free for the next.
    const [winner] = await a.listJobs();
    await a.append(winner!.jobId, 1, [ev('Done')], { job: { ...job('merged', 0, 9), final: true } });
    await b.append('job-next', 0, [ev('JobRequested')], { job: job('preparing', 0, 9) });
    expect((await a.listJobs({ unfinished: true })).map((j) => j.jobId)).toEqual(['job-next']);
  });

  it('given rows appended by two processes, then each row carries the hash chain and an edited row is named', async () => {
    const url = await freshSchema(database);
    const [a, b] = [open(url), open(url)];
    await a.append('c', 0, [ev('E1', { k: 'v', n: 1 }), ev('E2', { z: 1, a: [1, 'x'] })]);
    await b.append('c', 2, [ev('E3')]);
    await a.append('c', 3, [ev('E4', { unicode: 'é ✓ \u0000' })]);
    const rows = await a.readStream('c');
    expect(rows.map((r) => r.hash)).toEqual(rows.map(() => expect.stringMatching(/^[0-9a-f]{64}$/)));
    expect(brokenAt(rows)).toBeNull();
    await onDatabase(url, (c) =>
      c.query(`UPDATE events SET data = '{"z":2,"a":[1,"x"]}' WHERE stream_id = 'c' AND version = 2`),
    );
    expect(brokenAt(await a.readStream('c'))).toEqual({ seq: 2, reason: 'event 2 is not what was written' });
  });

  it('given a database without booty tables, then a read-only open refuses it and creates nothing', async () => {
    const url = await freshSchema(database);
    const err = await PostgresEventStore.open(url, { existing: true }).catch((e: unknown) => e);
    expect(isBootyError(err, 'BOOTY_E_DB_MISSING')).toBe(true);
    expect(
      await onDatabase(
        url,
        async (c) => (await c.query("SELECT to_regclass('schema_migrations') AS t")).rows[0].t,
      ),
    ).toBeNull();
  });

  it('given a server that does not answer, then opening fails naming the URL without its password', async () => {
    const url = new URL(database);
    url.password = 'secret-password';
    url.port = '1';
    const store = new PostgresEventStore(url.href);
    const err = (await store.readAll().catch((e: unknown) => e)) as Error;
    expect(isBootyError(err, 'BOOTY_E_DB_OPEN')).toBe(true);
    expect(err.message).toContain(
      `cannot open the database postgres://postgres:***@127.0.0.1:1${url.pathname}: `,
    );
    expect(err.message).not.toContain('secret-password');
    await store.close();
  });
});

// booty_append and the migrations need READ COMMITTED: under repeatable read or serializable, a
// transaction that waited for a lock still sees the world before it and fails (40001, or a table
// created twice). The store's connections set it whatever the database's default.
describe('PostgresEventStore on a database whose transactions default to serializable', () => {
  let altered: string;
  beforeAll(async () => {
    altered = await freshDatabase();
    const name = new URL(altered).pathname.slice(1);
    await onDatabase(altered, (c) =>
      c.query(`ALTER DATABASE ${name} SET default_transaction_isolation = 'serializable'`),
    );
    const shown = await onDatabase(
      altered,
      async (c) => (await c.query('SHOW default_transaction_isolation')).rows,
    );
    expect(shown).toEqual([{ default_transaction_isolation: 'serializable' }]);
  });

  it('given five stores opening it empty at once, then the schema is migrated once', async () => {
    const url = await freshSchema(altered);
    const stores = await Promise.all(Array.from({ length: 5 }, () => PostgresEventStore.open(url)));
    opened.push(...stores);
    const rows = await onDatabase(
      url,
      async (c) => (await c.query('SELECT version FROM schema_migrations')).rows,
    );
    expect(rows).toEqual((await readMigrations()).map((m) => ({ version: m.version })));
  });

  it('given writers appending at once, then none fails to serialize and the positions run without a gap', async () => {
    // The schema is named in the URL's own options, which the store's connections keep.
    const url = await freshSchema(altered);
    opened.push(await PostgresEventStore.open(url));
    const writers = await Promise.all(Array.from({ length: 6 }, () => PostgresEventStore.open(url)));
    opened.push(...writers);
    const perWriter = 30;
    await Promise.all(
      writers.map(async (w, n) => {
        for (let i = 0; i < perWriter; i++) {
          await w.append(`w${n}`, i, [ev('X')], { job: job(`${n}`, i, n + 1) });
          for (;;) {
            try {
              await w.append('shared', await w.streamVersion('shared'), [ev('S', { n, i })]);
              break;
            } catch (err) {
              if (!isBootyError(err, 'BOOTY_E_VERSION_CONFLICT')) throw err;
            }
          }
        }
      }),
    );
    const all = (await writers[0]!.readAll()).map((e) => e.position);
    expect(all).toEqual(Array.from({ length: writers.length * perWriter * 2 }, (_, i) => i + 1));
    expect(brokenAt(await writers[0]!.readStream('shared'))).toBeNull();
    const inPublic = await onDatabase(
      altered,
      async (c) => (await c.query("SELECT to_regclass('public.events') AS t")).rows[0].t,
    );
    expect(inPublic).toBeNull();
  });
});

function job(state: string, n: number, issue = 1) {
  return {
    repo: 'o/r',
    issue,
    state: `${state}${n}`,
    attempts: 0,
    final: false,
    outcome: null,
    tokens: 0,
  };
}
