import type { SimJob } from './github-sim-state-ci.js';

// A job's log as GitHub Actions writes it: a byte-order mark, then every line stamped with a
// seven-digit UTC time; the runner's set-up, then each step that ran as a `##[group]Run …` header
// (its command, its shell) closed by `##[endgroup]` and followed by its output, `##[error]` lines
// included; then the runner's clean-up. Skipped steps leave no lines.

/** GitHub's log stamp: 2026-01-01T00:00:00.1234567Z. */
const stamp = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$10000Z');

export function jobLog(job: SimJob): string {
  const lines: string[] = [];
  const startedAt = Date.parse(job.startedAt ?? job.createdAt);
  let tick = 0;
  const put = (text: string) => {
    lines.push(`${stamp(startedAt + tick)} ${text}`);
    tick += 7;
  };

  put("Current runner version: '2.321.0'");
  put('##[group]Operating System');
  put('Ubuntu');
  put('24.04.1');
  put('LTS');
  put('##[endgroup]');
  put('##[group]Runner Image');
  put('Image: ubuntu-24.04');
  put('##[endgroup]');
  put(`Complete job name: ${job.name}`);
  for (const step of job.steps) {
    if (step.name === 'Set up job' || step.name === 'Complete job' || step.conclusion === 'skipped') continue;
    const command = step.name.replace(/^Run /, '');
    put(`##[group]Run ${command}`);
    if (!command.includes('@')) {
      put(command);
      put('shell: /usr/bin/bash -e {0}');
    }
    put('##[endgroup]');
    for (const line of step.log) put(line);
  }
  put('Post job cleanup.');
  put('Cleaning up orphan processes');
  return `\uFEFF${lines.join('\n')}\n`;
}
