import { BootyError } from '../errors.js';
import type { ConversationWorld } from './demo-conversation.js';
import { changeAnswer } from './demo-script.js';

// The people in the `mention`, `question` and `person-pr` scenarios, played from the demo itself:
// a writer who calls on booty by name where no label asked, on the issue or on a pull request they
// opened themselves. Each step looks before it acts, so a resumed demo does nothing twice.

export const WRITER = 'monalisa';
const PERSON_BRANCH = 'monalisa/parse-duration';

const ASKS = {
  mention: '@booty please implement this.',
  question: '@booty where are durations formatted today?',
  'person-pr': '@booty please add a case for days ("2d") to the tests.',
} as const;

/** Where the writer asks: the issue, or the pull request they open first (person-pr). */
export async function mentionTarget(w: ConversationWorld, issue: number): Promise<number> {
  if (w.scenario !== 'person-pr') return issue;
  const open = (await w.remotes.pulls(w.owner, w.repo)).find((p) => p.head === PERSON_BRANCH);
  if (open) return open.number;
  const token = await w.remotes.person(w.owner, w.repo, WRITER, 'write');
  const files = Object.fromEntries(changeAnswer('fixed').changes.map((c) => [c.path, c.content]));
  await w.remotes.pushCommit(w.owner, w.repo, {
    branch: PERSON_BRANCH,
    files,
    message: 'Add parseDuration',
    author: WRITER,
  });
  w.note(`${WRITER} (write access) pushes ${PERSON_BRANCH} and opens a pull request from it`);
  const pr = (await rest(w, token, 'POST', 'pulls', {
    title: 'Add parseDuration',
    head: PERSON_BRANCH,
    base: 'main',
    body: `Closes #${issue}.`,
  })) as { number: number };
  await w.remotes.settled();
  return pr.number;
}

/** The writer's `@booty` on the target, once. */
export async function askBooty(w: ConversationWorld, target: number): Promise<void> {
  const body = ASKS[w.scenario as keyof typeof ASKS];
  if (!body) return;
  const said = (await w.remotes.comments(w.owner, w.repo, target)).some((c) => c.author === WRITER);
  if (said) return;
  const token = await w.remotes.person(w.owner, w.repo, WRITER, 'write');
  w.note(`${WRITER} (write access) comments on #${target}, which has no label: "${body}"`);
  if (w.remotes.comment) return w.remotes.comment(w.owner, w.repo, target, WRITER, body);
  await rest(w, token, 'POST', `issues/${target}/comments`, { body });
  await w.remotes.settled();
}

async function rest(w: ConversationWorld, token: string, method: string, route: string, body: object) {
  const res = await fetch(`${w.remotes.githubUrl}/repos/${w.owner}/${w.repo}/${route}`, {
    method,
    headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) {
    throw new BootyError('BOOTY_E_EFFECT_FAILED', {
      src: 'demo',
      reason: `the simulated GitHub refused ${method} ${route}: ${res.status} ${await res.text()}`,
    });
  }
  return res.json();
}
