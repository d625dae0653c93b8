import type { ForgeName } from '../events/job-events.js';
import type { Forge } from '../forges/forge.js';

// Two forges served by one booty (GitHub and GitLab configured together): each call goes to the
// forge the job's repository is on. Deliveries come in on each forge's own route (serve.ts); the
// webhooks and the delivery history here are the first forge's, for `/webhooks` as before.

export function routedForge(forges: Record<ForgeName, Forge & { secrets: string[] }>, first: ForgeName) {
  const of = (repo: { forge: ForgeName }) => forges[repo.forge];
  const primary = forges[first];
  const all = Object.values(forges);
  const forge: Forge & { secrets: string[] } = {
    name: all.map((f) => f.name).join('+'),
    get secrets() {
      return all.flatMap((f) => f.secrets);
    },
    handle: () => primary.handle(),
    identify: async () => {
      for (const f of all) await f.identify();
      return primary.handle();
    },
    webhooks: primary.webhooks,
    conversation: {
      isWriter: (repo, ...rest) => of(repo).conversation.isWriter(repo, ...rest),
      reviewComments: (repo, ...rest) => of(repo).conversation.reviewComments(repo, ...rest),
      react: (repo, ...rest) => of(repo).conversation.react(repo, ...rest),
      replyToReader: (repo, ...rest) => of(repo).conversation.replyToReader(repo, ...rest),
      mergedBy: (repo, ...rest) => of(repo).conversation.mergedBy(repo, ...rest),
      pullRequest: (repo, ...rest) => of(repo).conversation.pullRequest(repo, ...rest),
      answerIgnored: (repo, ...rest) => of(repo).conversation.answerIgnored(repo, ...rest),
    },
    effects: {
      openDraftPr: (input, pushed) => of(input.job.repo).effects.openDraftPr(input, pushed),
      promotePr: (input, ctx) => of(input.job.repo).effects.promotePr(input, ctx),
      readCi: (input, ctx) => of(input.job.repo).effects.readCi(input, ctx),
      rerunCi: (input, ctx) => of(input.job.repo).effects.rerunCi(input, ctx),
      demotePr: (input, ctx) => of(input.job.repo).effects.demotePr(input, ctx),
      postPlan: (input, ctx) => of(input.job.repo).effects.postPlan(input, ctx),
      escalate: (input, ctx) => of(input.job.repo).effects.escalate(input, ctx),
      answerRound: (job, outcome) => of(job.repo).effects.answerRound(job, outcome),
      answerQuestions: (job, answer) => of(job.repo).effects.answerQuestions(job, answer),
      suggestions: (job) => of(job.repo).effects.suggestions(job),
      listIssueComments: (job) => of(job.repo).effects.listIssueComments(job),
      getIssue: (repo, number, installationId) => of(repo).effects.getIssue(repo, number, installationId),
    },
    progress: {
      acknowledge: (job) => of(job.repo).progress.acknowledge(job),
      write: (job, body, known) => of(job.repo).progress.write(job, body, known),
      readPrBody: (job) => of(job.repo).progress.readPrBody(job),
      updatePrBody: (job, body) => of(job.repo).progress.updatePrBody(job, body),
    },
    remote: {
      url: (repo) => of(repo).remote.url(repo),
      credentials: (job) => of(job.repo).remote.credentials(job),
    },
    checkAccess: async () => {
      for (const f of all) await f.checkAccess?.();
    },
    history: primary.history,
    stop: () => {
      for (const f of all) f.stop();
    },
  };
  return { forge, forges };
}
