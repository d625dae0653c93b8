// The demo's simulators in a child process, for benchmarks that time booty's own work. GitHub and
// the model are machines elsewhere in any real deployment: their CPU, their event loop and the
// processes they spawn (git upload-pack and receive-pack for every clone, fetch and push) are not booty's. In one
// process with booty they would be, so a benchmark runs them here, apart, and hands runDemo a
// StartDemoRemotes that reaches them over IPC. The job itself still talks to them over HTTP.
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import type { DemoRemotes, StartDemoRemotes } from '../src/demo/demo-remotes.js';

type Method = Exclude<keyof DemoRemotes, 'githubUrl' | 'anthropicUrl'>;
export interface RemoteCall {
  id: number;
  method: 'start' | Method;
  args: unknown[];
}
export type RemoteReply = { id: number; result?: unknown; error?: string };

export interface RemoteSimulators {
  start: StartDemoRemotes;
  /** The child process's id, for what it costs. */
  pid: number;
  /** Ends the child process. */
  stop(): Promise<void>;
}

export async function forkRemoteSimulators(): Promise<RemoteSimulators> {
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'remote-simulators-child.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let next = 1;
  child.on('message', (reply: RemoteReply) => {
    const w = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.error !== undefined) w?.reject(new Error(`remote simulators: ${reply.error}`));
    else w?.resolve(reply.result);
  });
  const ready = new Promise<unknown>((resolve, reject) => {
    waiting.set(0, { resolve, reject });
    child.once('exit', (code) => reject(new Error(`the remote simulators exited (${code})`)));
  });
  child.on('exit', (code) => {
    for (const w of waiting.values()) w.reject(new Error(`the remote simulators exited (${code})`));
    waiting.clear();
  });
  await ready;

  const call = <T>(method: RemoteCall['method'], ...args: unknown[]) =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, method, args } satisfies RemoteCall);
    });

  const start: StartDemoRemotes = async (options) => {
    const urls = await call<{ githubUrl: string; anthropicUrl: string }>('start', options);
    return {
      ...urls,
      setWebhook: (target) => call('setWebhook', target),
      createRepo: (owner, name, fromDir) => call('createRepo', owner, name, fromDir),
      createIssue: (owner, name, input) => call('createIssue', owner, name, input),
      issues: (owner, name) => call('issues', owner, name),
      labelIssue: (owner, name, issue, label) => call('labelIssue', owner, name, issue, label),
      unlabelIssue: (owner, name, issue, label) => call('unlabelIssue', owner, name, issue, label),
      pulls: (owner, name) => call('pulls', owner, name),
      comments: (owner, name, issue) => call('comments', owner, name, issue),
      settled: () => call('settled'),
      redeliverMissed: () => call('redeliverMissed'),
      person: (owner, name, login, role) => call('person', owner, name, login, role),
      reviews: (owner, name, pr) => call('reviews', owner, name, pr),
      reviewComments: (owner, name, pr) => call('reviewComments', owner, name, pr),
      pushCommit: (owner, name, input) => call('pushCommit', owner, name, input),
      headOf: (owner, name, branch) => call('headOf', owner, name, branch),
      filesAt: (owner, name, sha) => call('filesAt', owner, name, sha),
      startCi: (owner, name, input) => call('startCi', owner, name, input),
      completeCi: (owner, name) => call('completeCi', owner, name),
      workflowRuns: (owner, name) => call('workflowRuns', owner, name),
      close: () => call('close'),
    };
  };

  return {
    start,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}
