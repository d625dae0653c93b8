import { main } from '../../src/cli/main.js';
import type { EvalReport } from '../../src/eval/eval-report.js';
import { machinePluginsOffEnv } from '../support/machine-plugins-off.js';

// `booty eval` in this process, as a user runs it: its exit code, the report it prints (--json),
// and its progress lines. The machine's own pytest plugins stay off (support/machine-plugins-off.ts).

export async function runEvalCli(args: string[], env: NodeJS.ProcessEnv = machinePluginsOffEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['eval', '--json', ...args], {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env,
  });
  const text = out.join('\n');
  return {
    code,
    report: (text.startsWith('{') ? JSON.parse(text) : null) as EvalReport | null,
    out: text,
    err: err.join('\n'),
  };
}
