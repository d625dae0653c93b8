import type { QualityRun } from '../events/effect-results.js';
import { tailOf } from './output-cap.js';
import { compareQuality, onBaseline, type QualityFacts } from './quality-compare.js';
import { findingsCapped, parseFindings } from './quality-findings.js';
import type { CommandResult } from './run-command.js';

// The quality commands (booty.yml `quality.commands`: lint, typecheck), one after another in the
// job's sandbox with the test command's timeout, output cap and process-group kill. Each starts
// from exactly the logged change: a command that rewrites files (a linter's --fix) changes nothing
// the next one sees.

const TAIL_CHARS = 4_000;

export interface QualityStepInput {
  commands: readonly string[];
  /** The work tree, put back to base + logged changes; called before each command. */
  tree: () => Promise<string>;
  /** Runs one command in that tree, contained as the tests are (no network). */
  exec: (dir: string, command: string) => Promise<CommandResult>;
  /** The output made fit to keep: ANSI-free, secrets scrubbed, the workspace shown as `.`. */
  clean: (output: string, dir: string) => string;
}

async function runAll(input: QualityStepInput): Promise<QualityFacts[]> {
  const facts: QualityFacts[] = [];
  for (const command of input.commands) {
    const dir = await input.tree();
    const result = await input.exec(dir, command);
    const output = input.clean(result.output, dir);
    const findings = parseFindings(output);
    facts.push({
      command,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      durationMs: result.durationMs,
      findings,
      incomplete: result.truncated || findingsCapped(findings),
      outputTail: tailOf(output, TAIL_CHARS),
    });
  }
  return facts;
}

/** On the base commit: what each command shows before any change, for the comparison. */
export async function baselineQuality(input: QualityStepInput): Promise<QualityRun[]> {
  return (await runAll(input)).map(onBaseline);
}

/** After a change: each command against its own run on the base commit. */
export async function changeQuality(
  input: QualityStepInput,
  baseline: readonly QualityRun[] | undefined,
): Promise<QualityRun[]> {
  return (await runAll(input)).map((after) =>
    compareQuality(
      baseline?.find((b) => b.command === after.command),
      after,
    ),
  );
}
