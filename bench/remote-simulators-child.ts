// The child side of bench/remote-simulators.ts: the demo's GitHub and Anthropic simulators, built
// (dist/, as `booty demo` runs them), in a process of their own, driven over the IPC channel.
import type { DemoRemotes } from '../src/demo/demo-remotes.js';
import { built } from './built.js';
import type { RemoteCall, RemoteReply } from './remote-simulators.js';

const { startDemoRemotes } =
  await built<typeof import('../src/demo/demo-remotes.js')>('src/demo/demo-remotes.js');

let remotes: DemoRemotes | null = null;

async function answer({ method, args }: RemoteCall): Promise<unknown> {
  if (method === 'start') {
    if (remotes) throw new Error('the remote simulators are already running');
    remotes = await startDemoRemotes(args[0] as Parameters<typeof startDemoRemotes>[0]);
    return { githubUrl: remotes.githubUrl, anthropicUrl: remotes.anthropicUrl };
  }
  if (!remotes) throw new Error(`${method}: the remote simulators are not running`);
  const current = remotes;
  if (method === 'close') remotes = null;
  return (current[method] as (...a: unknown[]) => Promise<unknown>)(...args);
}

process.on('message', (message: RemoteCall) => {
  answer(message).then(
    (result) => process.send!({ id: message.id, result } satisfies RemoteReply),
    (err: unknown) =>
      process.send!({ id: message.id, error: String((err as Error).stack ?? err) } satisfies RemoteReply),
  );
});
// The parent is done (or gone): close what is open, then leave.
process.on('disconnect', () => {
  const open = remotes;
  remotes = null;
  void (open ? open.close() : Promise.resolve()).finally(() => process.exit(0));
});
process.send!({ id: 0, result: 'ready' } satisfies RemoteReply);
