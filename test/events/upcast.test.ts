import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { isBootyError } from '../../src/errors.js';
import { EVENT_SCHEMA_VERSION, upcast } from '../../src/events/versions.js';
import { foldJob, jobInput } from '../../src/machines/fold.js';
import { SqliteEventStore } from '../../src/store/sqlite-event-store.js';
import { tempDir } from '../support/job-harness.js';

describe('event upcasting', () => {
  it('given a JobRequested stored in the version 1 shape, when read, then it folds as the current shape', () => {
    const file = path.join(tempDir(), 'old.db');
    new SqliteEventStore(file).close();
    // Write the row as an older booty did: repository as "owner/name", issue fields flattened.
    const v1 = {
      jobId: 'old-1',
      repository: 'acme/widgets',
      issueNumber: 12,
      issueTitle: 'Fix the parser',
      triggerLabel: 'booty',
      sender: 'octocat',
      deliveryId: 'd-1',
      installationId: null,
      requestedAt: 1_700_000_000_000,
    };
    const db = new Database(file);
    db.prepare(
      `INSERT INTO events (stream_id, version, type, schema_version, data, state, meta, at)
       VALUES ('old-1', 1, 'JobRequested', 1, ?, 'preparing', '{}', 0)`,
    ).run(JSON.stringify(v1));
    db.close();

    const store = new SqliteEventStore(file);
    const [row] = store.readStream('old-1');
    expect(row!.schemaVersion).toBe(EVENT_SCHEMA_VERSION);
    const input = jobInput(row);
    expect(input.repo).toEqual({ owner: 'acme', name: 'widgets' });
    expect(input.issue).toEqual({ number: 12, title: 'Fix the parser', body: '', url: '' });
    expect(input.settings.maxAttempts).toBe(3);
    const snapshot = foldJob(store.readStream('old-1'));
    expect(snapshot.value).toBe('preparing');
    expect(snapshot.context.branch).toBe('booty/issue-12-fix-the-parser');
    store.close();
  });

  it('refuses an event written by a newer booty, naming the versions', () => {
    let caught: unknown;
    try {
      upcast({ type: 'JobRequested', version: EVENT_SCHEMA_VERSION + 1, data: {} });
    } catch (err) {
      caught = err;
    }
    expect(isBootyError(caught, 'BOOTY_E_EVENT_UNKNOWN_VERSION')).toBe(true);
    expect((caught as Error).message).toContain(`schema version ${EVENT_SCHEMA_VERSION + 1}`);
  });
});
