import { BootyError } from '../errors.js';

// Old logs must keep replaying. Every stored event carries the schema version it was written with;
// on read, an upcaster lifts it one version at a time to the current shape.

/** Bump when an event's stored shape changes, and add an upcaster from the previous version. */
export const EVENT_SCHEMA_VERSION = 3;
/** Bump when the job machine's states or transitions change. Stored in every row's metadata. */
export const MACHINE_VERSION = 1;

export interface VersionedEvent {
  type: string;
  version: number;
  data: Record<string, unknown>;
}

type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;

/**
 * v2 test runs named only their failing tests. v3 records every case; an old run becomes one whose
 * cases are its named failures, read from the text, and whose verdict is what it decided then.
 */
const testRunV3: Upcaster = (data) => {
  const output = data.output as Record<string, any> | undefined;
  if (!output || 'cases' in output) return data;
  const failing: string[] = output.failingTests ?? [];
  const exit = output.exitCode;
  return {
    ...data,
    output: {
      ...output,
      ran: exit !== 126 && exit !== 127,
      source: 'text',
      cases: failing.map((id) => ({
        id,
        file: null,
        name: id.split(/ > |::/).at(-1) ?? id,
        status: 'failed',
        durationMs: null,
        message: null,
      })),
      loadErrors: [],
      totals: { total: failing.length, passed: 0, failed: failing.length, errored: 0, skipped: 0 },
      broken: null,
      verdict: output.passed ? 'pass' : 'fail',
      reasons: [],
      changedTests: output.addedTestsFailing ?? [],
    },
  };
};

/** upcasters[type][v] turns version v of that event into version v + 1. */
const upcasters: Record<string, Record<number, Upcaster>> = {
  'xstate.done.actor.runBaseline': { 2: testRunV3 },
  'xstate.done.actor.runTests': { 2: testRunV3 },
  JobRequested: {
    // v1 stored the repository as "owner/name" and the issue as a bare number with a separate title.
    1: (data) => {
      const { repository, issueNumber, issueTitle, issueBody, issueUrl, ...rest } = data as Record<
        string,
        any
      >;
      const [owner, name] = String(repository).split('/');
      return {
        ...rest,
        repo: { owner, name },
        issue: { number: issueNumber, title: issueTitle ?? '', body: issueBody ?? '', url: issueUrl ?? '' },
        settings: rest.settings ?? {},
      };
    },
  },
};

export function upcast(event: VersionedEvent): VersionedEvent {
  if (event.version > EVENT_SCHEMA_VERSION) {
    throw new BootyError('BOOTY_E_EVENT_UNKNOWN_VERSION', {
      type: event.type,
      version: event.version,
      known: EVENT_SCHEMA_VERSION,
    });
  }
  let { data, version } = event;
  while (version < EVENT_SCHEMA_VERSION) {
    const step = upcasters[event.type]?.[version];
    if (step) data = step(data);
    version += 1;
  }
  return { type: event.type, version, data };
}
