import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { JobObserver } from '../engine/supervisor.js';
import { loadEnv } from '../env.js';
import { BootyError } from '../errors.js';
import { repoKey } from '../events/job-events.js';
import { createLogger } from '../log.js';
import { maxAttemptsOf } from '../machines/job-context.js';
import { stateName, waitingStates } from '../machines/job-states.js';
import { startBooty } from '../main/serve.js';
import { type ConversationWorld, playConversation, prepareConversation } from './demo-conversation.js';
import { askBooty, mentionTarget } from './demo-mention.js';
import { DEMO_BOT, type DemoRemotes, type StartDemoRemotes, startDemoRemotes } from './demo-remotes.js';
import { startGitLabDemoRemotes } from './demo-remotes-gitlab.js';
import { type DemoResult, demoResult } from './demo-result.js';
import {
  conversationScenarios,
  examplesDir,
  mentionScenarios,
  type Scenario,
  sampleIssue,
} from './demo-script.js';

// `booty demo`: a real job on this machine. The local GitHub simulator (its state in DIR) holds
// the sample repository and its issue; the local Anthropic simulator plays the scenario's turns;
// booty serves on a free port with its database in DIR. Labeling the issue sends a signed
// webhook, and the job runs through real git, real test runs and real HTTP. Run again on the same
// DIR, the demo resumes the unfinished job from its log, or shows the finished one.

const OWNER = 'demo';
const REPO = 'tiny-durations';

const DemoState = z.object({
  scenario: z.string(),
  /** The forge the demo plays on; older demo dirs are GitHub's. */
  forge: z.enum(['github', 'gitlab']).default('github'),
  secret: z.string(),
  token: z.string(),
  githubPort: z.number().int(),
  issue: z.number().int().nullable(),
});
type DemoState = z.infer<typeof DemoState>;

export interface DemoProgress {
  /** A job reached a new state: `attempt` is set while generating or refining. */
  state(change: { jobId: string; state: string; attempt: number; maxAttempts: number; at: number }): void;
  note(text: string): void;
}

export async function runDemo(options: {
  scenario: Scenario;
  dir: string;
  progress?: DemoProgress;
  /** Where the simulators run: in this process unless said otherwise (the benchmark runs them apart). */
  remotes?: StartDemoRemotes;
  /** The forge the job runs on: GitHub's simulator (the default) or GitLab's. */
  forge?: 'github' | 'gitlab';
}): Promise<DemoResult> {
  const { scenario, progress } = options;
  const forge = options.forge ?? 'github';
  const dir = path.resolve(options.dir);
  fs.mkdirSync(dir, { recursive: true });
  const state = loadState(dir, scenario, forge);
  const db = path.join(dir, 'booty.db');
  // Logs go to a file: the terminal shows the job, and --json keeps stdout to one object.
  const log = createLogger({
    level: 'info',
    destination: fs.createWriteStream(path.join(dir, 'booty.log'), { flags: 'a' }),
  });

  const start = options.remotes ?? (forge === 'gitlab' ? startGitLabDemoRemotes : startDemoRemotes);
  const remotes = await startRemotes(start, dir, state, scenario);
  const forgeEnv =
    forge === 'gitlab'
      ? {
          BOOTY_FORGE: 'gitlab',
          GITLAB_URL: remotes.githubUrl,
          GITLAB_TOKEN: state.token,
          GITLAB_WEBHOOK_SECRET: state.secret,
        }
      : {
          GITHUB_API_URL: remotes.githubUrl,
          GITHUB_TOKEN: state.token,
          GITHUB_WEBHOOK_SECRET: state.secret,
        };
  const env = loadEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    BOOTY_DB: db,
    BOOTY_WORKDIR: path.join(dir, 'work'),
    ...forgeEnv,
    ANTHROPIC_API_KEY: 'demo-key',
    ANTHROPIC_BASE_URL: remotes.anthropicUrl,
    BOOTY_CONCURRENCY: '1',
  });
  let last = '';
  const printer: JobObserver = {
    changed: ({ jobId, snapshot }) => {
      const name = stateName(snapshot);
      if (name === last) return;
      last = name;
      const { attempt } = snapshot.context;
      const maxAttempts = maxAttemptsOf(snapshot.context);
      progress?.state({ jobId, state: name, attempt, maxAttempts, at: Date.now() });
    },
  };
  const booty = await startBooty({ env, log, observers: [printer] }).catch(async (err: unknown) => {
    await remotes.close();
    throw err;
  });
  const { server, store } = booty;
  const runtime = booty.runtime!;

  try {
    await remotes.setWebhook({ url: `${server.url}/webhooks`, secret: state.secret });
    const issue = state.issue ?? (await createIssue(remotes, dir, state));
    const world: ConversationWorld = {
      scenario,
      remotes,
      owner: OWNER,
      repo: REPO,
      idle: () => server.supervisor.onIdle(),
      note: (text) => progress?.note(text),
    };
    await prepareConversation(world);
    const key = repoKey({ forge, owner: OWNER, name: REPO });
    const byMention = mentionScenarios.includes(scenario);
    // A mention on a person's pull request starts a job for that pull request.
    const target = byMention ? await mentionTarget(world, issue) : issue;
    const jobOf = async () =>
      (await store.listJobs()).filter((j) => j.repo === key && j.issue === target).at(-1);
    const existing = await jobOf();
    let jobId = existing?.jobId;
    if (!jobId && byMention) {
      await askBooty(world, target);
      await server.supervisor.onIdle();
      jobId = (await jobOf())?.jobId;
      if (!jobId)
        throw new BootyError('BOOTY_E_EFFECT_FAILED', {
          src: 'demo',
          reason: 'the mention did not start a job; see booty.log in the demo dir',
        });
    } else if (!jobId) {
      progress?.note(`labeling ${key}#${issue} "booty": the simulator sends a signed issues.labeled webhook`);
      // An interrupted earlier run may have left the label on with no job: label afresh.
      const labels = (await remotes.issues(OWNER, REPO)).find((i) => i.number === issue)?.labels;
      if (labels?.includes('booty')) await remotes.unlabelIssue(OWNER, REPO, issue, 'booty');
      await remotes.labelIssue(OWNER, REPO, issue, 'booty');
      jobId =
        (await store.findActiveJob(key, issue))?.jobId ??
        (await store.listJobs()).filter((j) => j.repo === key && j.issue === issue).at(-1)?.jobId;
      if (!jobId)
        throw new BootyError('BOOTY_E_EFFECT_FAILED', {
          src: 'demo',
          reason: 'the webhook did not start a job; see booty.log in the demo dir',
        });
    } else if (!existing!.final && !(waitingStates as readonly string[]).includes(existing!.state)) {
      progress?.note(`resuming job ${jobId} from its log (it stopped at ${existing!.state})`);
    } else if (!existing!.final) {
      progress?.note(`job ${jobId} waits with its pull request (${existing!.state}); showing it again`);
    } else {
      progress?.note(`job ${jobId} already finished; showing it again`);
    }
    let snapshot = await server.supervisor.whenFinished(jobId);
    // The job waits with its PR: the scenario's reviewer or CI wakes it, until it waits again.
    if (conversationScenarios.includes(scenario) && snapshot.status !== 'done' && snapshot.context.pr) {
      await playConversation(world, {
        number: snapshot.context.pr.number,
        draft: stateName(snapshot) !== 'promoted',
      });
      snapshot = await server.supervisor.whenFinished(jobId);
    }
    await runtime.reporter.idle(jobId);
    return await demoResult({
      jobId,
      snapshot,
      remotes,
      where: { owner: OWNER, repo: REPO, issue: target, bot: DEMO_BOT },
      db,
      scenario,
    });
  } finally {
    await booty.close();
    await remotes.close();
  }
}

function loadState(dir: string, scenario: Scenario, forge: 'github' | 'gitlab'): DemoState {
  const file = path.join(dir, 'demo.json');
  if (fs.existsSync(file)) {
    const state = DemoState.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (state.scenario !== scenario) {
      throw new BootyError('BOOTY_E_USAGE', {
        command: 'demo',
        reason: `${dir} holds the "${state.scenario}" scenario; run it with --scenario ${state.scenario}, or pick another --dir`,
      });
    }
    if (state.forge !== forge) {
      throw new BootyError('BOOTY_E_USAGE', {
        command: 'demo',
        reason: `${dir} holds a demo on ${state.forge}; run it with --forge ${state.forge}, or pick another --dir`,
      });
    }
    return state;
  }
  const state: DemoState = {
    scenario,
    forge,
    secret: randomBytes(16).toString('hex'),
    token: `${forge === 'gitlab' ? 'glpat-demo' : 'ghp_demo'}${randomBytes(16).toString('hex')}`,
    githubPort: 0,
    issue: null,
  };
  saveState(dir, state);
  return state;
}

const saveState = (dir: string, state: DemoState) =>
  fs.writeFileSync(path.join(dir, 'demo.json'), `${JSON.stringify(state, null, 2)}\n`);

/** The simulators, GitHub on the port it had before, so the PR links in the log stay valid on resume. */
async function startRemotes(
  start: StartDemoRemotes,
  dir: string,
  state: DemoState,
  scenario: Scenario,
): Promise<DemoRemotes> {
  const remotes = await start({
    dir: path.join(dir, 'github'),
    port: state.githubPort,
    token: state.token,
    scenario,
  });
  try {
    state.githubPort = Number(new URL(remotes.githubUrl).port);
    saveState(dir, state);
    await remotes.createRepo(OWNER, REPO, path.join(examplesDir, 'sample-repo'));
    return remotes;
  } catch (err) {
    await remotes.close();
    throw err;
  }
}

async function createIssue(remotes: DemoRemotes, dir: string, state: DemoState): Promise<number> {
  const { title, body } = sampleIssue();
  const issue = await remotes.createIssue(OWNER, REPO, { title, body, author: 'octocat' });
  state.issue = issue;
  saveState(dir, state);
  return issue;
}
