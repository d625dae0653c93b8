import type { Responder, Turn } from '../../sim/anthropic/anthropic-simulator.js';

// A stand-in for the real API in record/replay tests: a model that answers the pycalc tasks
// (fixtures/pycalc-tasks.jsonl) as a fallible model might. On pycalc-clamp it makes the plausible
// wrong fix that passes the visible tests (a false promotion); on pycalc-percent its first attempt
// breaks a visible test and its second fixes it (a refinement, whose request carries the failure);
// on pycalc-hours it gets it right at once.

const analysis = (file: string) => ({
  summary: 'Fix the function the issue names.',
  changeKind: 'fix',
  filesToRead: [file],
  filesToChange: [file],
  testsToAdd: [],
  acceptanceCriteria: ['The tests pass.'],
  risks: [],
});

const edit = (search: string, replace: string): Turn => ({
  answer: {
    explanation: 'Edit pycalc/core.py.',
    edits: [{ path: 'pycalc/core.py', search, replace }],
    changes: [],
    deletePaths: [],
  },
});

const answers: Record<string, Turn[]> = {
  'eval/pycalc-clamp': [
    edit(
      '        return low\n    return value',
      '        return low\n    if value > high:\n        return low\n    return value',
    ),
  ],
  'eval/pycalc-percent': [
    edit(
      '    return round(part / whole * 100, 1)',
      '    if whole == 0:\n        return 0.0\n    return round(part / whole, 1)',
    ),
    edit('    return round(part / whole, 1)', '    return round(part / whole * 100, 1)'),
  ],
  'eval/pycalc-hours': [edit('{"s": 1, "m": 60}', '{"s": 1, "m": 60, "h": 60 * 60}')],
};

export const standInModel: Responder = (request) => {
  if (request.toolName === 'submit_failure_class') return { answer: { failureClass: 'assertion' } };
  const repo = /<repository name=\\"([^"\\]+)\\"/.exec(request.raw)?.[1] ?? '';
  if (request.toolName === 'submit_analysis') return { answer: analysis('pycalc/core.py') };
  const turns = answers[repo];
  if (request.toolName !== 'submit_changes' || !turns) return undefined;
  const attempt = new Set(request.raw.match(/Attempt \d+:/g) ?? []).size;
  return turns[Math.min(attempt, turns.length - 1)];
};
