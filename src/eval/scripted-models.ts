import type { Responder, SimRequest, Turn } from '../../sim/anthropic/anthropic-simulator.js';
import type { Analysis } from '../events/effect-results.js';
import type { GoldAnswer } from './gold-answer.js';

// The two scripted models that check the harness itself, as SWE-bench checks its own: the oracle
// answers every task with its gold patch, so a harness that works resolves every task; the null
// model answers with no change, so it resolves none. Both answer on the local Messages API in the
// real wire format, so booty's real client, prompts, validation and repair turn are on the path.
// Each request names its repository (`<repository name="eval/ID"`), which names the task.

export type ScriptedMode = 'oracle' | 'null';

export interface ScriptedTask {
  /** The repository's name on the local forge (`eval/ID`). */
  repo: string;
  title: string;
  /** The oracle's change; null for the null model. */
  gold: GoldAnswer | null;
}

const REPOSITORY = /<repository name=\\"([^"\\]+)\\"/;

/** The task a request is for, read from the repository it shows. */
export function taskOf(request: Pick<SimRequest, 'raw'>): string | null {
  return REPOSITORY.exec(request.raw)?.[1] ?? null;
}

function analysisFor(task: ScriptedTask): Analysis {
  const files = task.gold
    ? [
        ...task.gold.edits.map((e) => e.path),
        ...task.gold.changes.map((c) => c.path),
        ...task.gold.deletePaths,
      ]
    : [];
  const unique = [...new Set(files)];
  return {
    summary: task.gold ? `Apply the known fix for: ${task.title}` : `Leave the code as it is: ${task.title}`,
    changeKind: 'fix',
    filesToRead: unique,
    filesToChange: unique,
    testsToAdd: [],
    acceptanceCriteria: ['The repository’s tests pass.'],
    risks: [],
  };
}

function changesFor(task: ScriptedTask): Turn {
  if (!task.gold)
    return {
      answer: {
        explanation: 'No change: the null model answers every task with none.',
        edits: [],
        changes: [],
        deletePaths: [],
      },
    };
  return { answer: { explanation: 'The gold patch of the task, as edits.', ...task.gold } };
}

/** Answers each task's requests from its script; a request for an unknown task gets no turn. */
export function scriptedResponder(tasks: ScriptedTask[]): Responder {
  const byRepo = new Map(tasks.map((t) => [t.repo, t]));
  return (request): Turn | undefined => {
    if (request.toolName === 'submit_failure_class') return { answer: { failureClass: 'unknown' } };
    const name = taskOf(request);
    const task = name ? byRepo.get(name) : undefined;
    if (!task) return undefined;
    if (request.toolName === 'submit_analysis') return { answer: analysisFor(task) };
    if (request.toolName === 'submit_changes') return changesFor(task);
    return undefined;
  };
}
