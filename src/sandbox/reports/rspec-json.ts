import type { TestCase, TestStatus } from '../../events/effect-results.js';
import { type CaseBatch, ReportParseError, repoPath, uniqueIds } from './case-list.js';
import { failureMessage } from './case-message.js';

// RSpec's built-in `json` formatter (booty asks for it through SPEC_OPTS). Each example has its
// file, its description and `full_description` (the group descriptions and its own, joined by
// spaces). RSpec's own id, `./spec/x_spec.rb[1:2]`, is positional and moves when an example is
// added above, so the id here is the file and the full description. Frames from gems are left out.

interface Example {
  description?: string;
  full_description?: string;
  status?: string;
  file_path?: string;
  run_time?: number;
  pending_message?: string | null;
  exception?: { class?: string; message?: string; backtrace?: string[] | null };
}
interface RspecReport {
  version?: string;
  examples?: Example[];
  messages?: string[];
  summary?: { errors_outside_of_examples_count?: number };
}

export function isRspecJson(doc: unknown): doc is RspecReport {
  return typeof doc === 'object' && doc !== null && Array.isArray((doc as RspecReport).examples);
}

const STATUS: Record<string, TestStatus> = { passed: 'passed', failed: 'failed', pending: 'skipped' };

/** Frames of gems, Ruby itself and RSpec's own executable. */
const GEM_FRAME = /\/gems\/|\/rubygems|\/usr\/lib\/ruby\/|\/(bin|exe)\/rspec:/;

function messageOf(e: Example, cwd: string): string | null {
  const x = e.exception;
  if (!x) return null;
  const frames = (x.backtrace ?? []).filter((f) => !GEM_FRAME.test(f)).map((f) => `    at ${f}`);
  const head = [x.class, (x.message ?? '').trim()].filter(Boolean).join(': ');
  return failureMessage([head, ...frames].join('\n'), cwd);
}

export function parseRspecJson(doc: unknown, cwd: string): CaseBatch {
  if (!isRspecJson(doc)) throw new ReportParseError('not an RSpec JSON report: no examples');
  const cases: TestCase[] = (doc.examples ?? []).map((e) => {
    const file = e.file_path ? repoPath(e.file_path, cwd) : null;
    const name = e.description ?? '';
    const full = e.full_description ?? name;
    const status = STATUS[e.status ?? ''] ?? 'errored';
    return {
      id: [file, full].filter(Boolean).join(' > '),
      file,
      name,
      status,
      durationMs: typeof e.run_time === 'number' ? Math.round(e.run_time * 1_000_000) / 1000 : null,
      message: status === 'failed' || status === 'errored' ? messageOf(e, cwd) : null,
    };
  });
  // A file that failed to load: RSpec runs nothing, counts an error outside examples, and says
  // which file in its message ("An error occurred while loading ./spec/x_spec.rb.").
  const loadErrors: CaseBatch['loadErrors'] = [];
  if ((doc.summary?.errors_outside_of_examples_count ?? 0) > 0) {
    for (const text of doc.messages ?? []) {
      const at = text.indexOf('An error occurred while loading ');
      if (at < 0) continue;
      const rest = text.slice(at + 'An error occurred while loading '.length);
      const file = rest.slice(0, rest.search(/\.?(\s|$)/));
      loadErrors.push({
        file: repoPath(file, cwd),
        message: failureMessage(text.trim(), cwd) ?? 'failed to load',
      });
    }
    if (loadErrors.length === 0) {
      const message = failureMessage((doc.messages ?? []).join('\n'), cwd) ?? 'an error outside examples';
      loadErrors.push({ file: 'spec', message });
    }
  }
  return { cases: uniqueIds(cases), loadErrors };
}
