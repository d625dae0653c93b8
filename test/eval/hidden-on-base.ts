import fs from 'node:fs';
import path from 'node:path';
import PQueue from 'p-queue';
import { startGitHubSimulator } from '../../sim/github/github-simulator.js';
import { type HiddenRun, runHiddenTests } from '../../src/eval/hidden-tests.js';
import type { EvalTask } from '../../src/eval/task-format.js';
import { importTask } from '../../src/eval/task-import.js';
import { machinePluginsOff } from '../support/machine-plugins-off.js';

// What `booty eval --null` judges, without the job before it: each task imported on a local forge
// as the eval imports it, and its hidden tests run on that commit (the base, with the task's
// booty.yml) by the eval's own judge. The null model changes nothing, so the null run's verdict of
// a task is this one.

export async function hiddenTestsOnBase(
  tasks: EvalTask[],
  dir: string,
  concurrency: number,
): Promise<Map<string, HiddenRun>> {
  const github = await startGitHubSimulator({ dir: path.join(dir, 'github') });
  const workRoot = path.join(dir, 'hidden');
  fs.mkdirSync(workRoot, { recursive: true });
  const runs = new Map<string, HiddenRun>();
  try {
    const queue = new PQueue({ concurrency });
    await queue.addAll(
      tasks.map((task) => async () => {
        const repo = await importTask(task, github);
        runs.set(
          task.id,
          await runHiddenTests({
            task,
            bare: repo.bare,
            commit: repo.head,
            workRoot,
            sandbox: 'auto',
            passEnv: machinePluginsOff,
          }),
        );
      }),
    );
  } finally {
    await github.close();
  }
  return runs;
}
