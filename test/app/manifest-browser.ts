import { appCommand } from '../../src/cli/app-command.js';
import { until } from '../support/until.js';

// `booty app create` in this process, with a test doing the browser's part over real HTTP: open
// the page booty prints, post its form to GitHub (the simulator), follow GitHub's redirect back.

const unhtml = (s: string) =>
  s.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!,
  );

export function runAppCreate(values: Record<string, string | boolean>, env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const exit = appCommand.run(
    { values, positionals: ['create'] },
    { out: (l) => out.push(l), err: (l) => err.push(l), env, self: 'booty' },
  );
  exit.catch(() => {}); // awaited by the test
  return { exit, out, err };
}

/** The browser: returns GitHub's answer to the form, and the page booty shows at the end. */
export async function actAsBrowser(out: string[]) {
  await until('booty to print the page to open', () => out.some((l) => l.startsWith('Open ')), 10_000);
  const pageUrl = /^Open (\S+) in/.exec(out.find((l) => l.startsWith('Open '))!)![1]!;
  const page = await (await fetch(pageUrl)).text();
  const action = unhtml(/<form method="post" action="([^"]+)">/.exec(page)![1]!);
  const manifest = JSON.parse(unhtml(/name="manifest" value="([^"]*)"/.exec(page)![1]!));
  const github = await fetch(action, {
    method: 'POST',
    body: new URLSearchParams({ manifest: JSON.stringify(manifest) }),
    redirect: 'manual',
  });
  const location = github.headers.get('location');
  const back = location ? await fetch(location) : null;
  return {
    pageUrl,
    action,
    manifest,
    github: { status: github.status, location, text: await github.text() },
    back: back && { status: back.status, text: await back.text() },
  };
}
