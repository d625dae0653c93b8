import type { Octokit } from '@octokit/rest';
import { type GitHubSimulatorOptions, startGitHubSimulator } from '../../sim/github/github-simulator.js';
import { pushFiles } from '../support/git-push.js';
import { personOn } from '../support/github-person.js';
import { tempDir } from '../support/job-harness.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

// A simulated GitHub whose every reply is checked against GitHub's OpenAPI description, with a
// webhook receiver, the acme/widgets repository (README.md and index.js on main), and booty-bot
// ready to open a PR the way booty does: push a branch over HTTP, then POST the PR.

export const OWNER = 'acme';
export const REPO = 'widgets';
export const BRANCH = 'booty/issue-1';
export const ADD_JS = 'export const add = (a, b) => a + b;\n';

export async function prWorld(options: Partial<GitHubSimulatorOptions> = {}) {
  const hooks = await startWebhookReceiver('conversation-secret');
  const sim = await startGitHubSimulator({ dir: tempDir('booty-ghsim-'), checkReplies: true, ...options });
  sim.setWebhook(hooks.target);
  await sim.createRepo(OWNER, REPO);
  await sim.pushCommit(OWNER, REPO, {
    branch: 'main',
    files: { 'README.md': '# widgets\n', 'index.js': 'export const one = 1;\n' },
    message: 'Initial commit',
  });
  const booty = personOn(sim, 'booty-bot');
  const where = { owner: OWNER, repo: REPO };

  /** booty-bot's branch and PR; resolves once the webhooks it caused were tried. */
  async function openPr(files: Record<string, string> = { 'add.js': ADD_JS }) {
    const sha = await pushFiles(`${sim.url}/${OWNER}/${REPO}.git`, sim.tokenFor('booty-bot'), BRANCH, files);
    const { data } = await booty.rest.pulls.create({
      ...where,
      head: BRANCH,
      base: 'main',
      title: 'Add add()',
    });
    await sim.settled();
    return { number: data.number, sha, nodeId: data.node_id };
  }

  return {
    sim,
    hooks,
    booty,
    where,
    openPr,
    person: (login: string): Octokit => personOn(sim, login),
    async close() {
      await sim.close();
      await hooks.close();
    },
  };
}
