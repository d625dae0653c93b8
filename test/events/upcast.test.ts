import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { isBootyError } from '../../src/errors.js';
import { catalogue } from '../../src/events/catalogue.js';
import { foldJob, jobInput } from '../../src/machines/fold.js';
import { readJobLog } from '../../src/store/job-log.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { tempDir } from '../support/job-harness.js';

/** The fields every JobRequested version has in this shape (v2 and later), for job `j`. */
const requestOfJ = {
  jobId: 'j',
  repo: { owner: 'o', name: 'r' },
  issue: { number: 1, title: 't', body: '', url: '' },
  triggerLabel: 'booty',
  sender: 's',
  deliveryId: 'd',
  installationId: null,
  requestedAt: 0,
  settings: {},
};

describe('event upcasting', () => {
  it('given a JobRequested stored in the version 1 shape, when read, then it folds as the current shape', async () => {
    const file = path.join(tempDir(), 'old.db');
    await new SqliteEventStore(file).close();
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
    const [row] = await readJobLog(store, 'old-1');
    expect(row!.schemaVersion).toBe(catalogue.JobRequested.version);
    const input = jobInput(row);
    expect(input.repo).toEqual({ forge: 'github' as const, owner: 'acme', name: 'widgets' });
    expect(input.issue).toEqual({ number: 12, title: 'Fix the parser', body: '', url: '' });
    expect(input.settings.maxAttempts).toBe(3);
    const snapshot = foldJob(await readJobLog(store, 'old-1'));
    expect(snapshot.value).toBe('preparing');
    expect(snapshot.context.branch).toBe('booty/issue-12-fix-the-parser');
    await store.close();
  });

  it.each([
    [3, { loopControls: false, qualityProgress: false, collaborator: false, draftByAction: false }],
    [4, { loopControls: true, qualityProgress: false, collaborator: false, draftByAction: false }],
    [5, { loopControls: true, qualityProgress: true, collaborator: false, draftByAction: false }],
    [6, { loopControls: true, qualityProgress: true, collaborator: true, draftByAction: false }],
  ] as const)(
    'given a JobRequested v%i, when read, then the rule switches are as its release ran',
    async (version, request) => {
      const store = new SqliteEventStore(path.join(tempDir(), 'rules.db'));
      await store.append('j', 0, [{ type: 'JobRequested', version, data: requestOfJ }]);
      const snapshot = foldJob(await readJobLog(store, 'j'));
      await store.close();
      expect(snapshot.context.request).toMatchObject(request);
    },
  );

  it.each([
    [5, { owner: 'o', name: 'r' }, 'github'],
    [6, { owner: 'o', name: 'r' }, 'github'],
    [7, { forge: 'gitlab', owner: 'group/sub', name: 'r' }, 'gitlab'],
    [7, { forge: 'github', owner: 'o', name: 'r' }, 'github'],
  ] as const)(
    'given a JobRequested v%i naming the repository %j, when read, then the job is on %s',
    async (version, repo, forge) => {
      const store = new SqliteEventStore(path.join(tempDir(), 'forge.db'));
      await store.append('j', 0, [{ type: 'JobRequested', version, data: { ...requestOfJ, repo } }]);
      const [row] = await readJobLog(store, 'j');
      await store.close();
      expect(row!.schemaVersion).toBe(8);
      expect(jobInput(row).repo).toEqual({ ...repo, forge });
      expect(foldJob([row!]).context.request.draftByAction).toBe(false);
    },
  );

  it('refuses a v7 JobRequested that names no forge: only older rows are lifted', async () => {
    const store = new SqliteEventStore(path.join(tempDir(), 'noforge.db'));
    await store.append('j', 0, [{ type: 'JobRequested', version: 7, data: requestOfJ }]);
    const caught = await readJobLog(store, 'j').catch((err: unknown) => err);
    await store.close();
    expect(isBootyError(caught, 'BOOTY_E_EVENT_INVALID')).toBe(true);
  });

  it.each([
    [
      'a type booty does not know',
      'TestsWereFine',
      1,
      '{}',
      'BOOTY_E_EVENT_UNKNOWN_TYPE',
      'event 2 of job j has the type TestsWereFine',
    ],
    [
      'a version from the future',
      'StepSucceeded',
      99,
      '{}',
      'BOOTY_E_EVENT_UNKNOWN_VERSION',
      'event 2 of job j (StepSucceeded) has schema version 99, newer than this booty knows (1)',
    ],
    [
      'a payload that does not parse',
      'StepSucceeded',
      1,
      '{"step":"test","attempt":1,"result":{"verdict":"pass"}}',
      'BOOTY_E_EVENT_INVALID',
      'event 2 of job j (StepSucceeded) does not match its schema',
    ],
    [
      'a step booty does not know',
      'StepFailed',
      1,
      '{"step":"deploy","attempt":0,"error":{"code":"X","message":"m","retryable":false,"at":0}}',
      'BOOTY_E_EVENT_INVALID',
      'step',
    ],
  ] as const)('refuses %s, naming the job and the row', async (_, type, version, data, code, message) => {
    const file = path.join(tempDir(), 'bad.db');
    const store = new SqliteEventStore(file);
    await store.append('j', 0, [{ type: 'JobRequested', version: 3, data: requestOfJ }]);
    await store.append('j', 1, [{ type, version, data: JSON.parse(data) }]);
    let caught: unknown;
    try {
      await readJobLog(store, 'j');
    } catch (err) {
      caught = err;
    }
    await store.close();
    expect(isBootyError(caught, code)).toBe(true);
    expect((caught as Error).message).toContain(message);
  });
});
