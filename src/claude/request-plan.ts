import type { Tool } from '@anthropic-ai/sdk/resources/messages/messages';
import type { JobContext } from '../machines/job-context.js';
import { type Keep, REPO_SHARE, type RepoFile, selectRepoContext, selectSections } from './context-budget.js';
import { repositoryContext, SYSTEM_PROMPT } from './prompts.js';
import type { RepoReader } from './repo-reader.js';
import { type CountableRequest, estimateRequestTokens, estimateTokens } from './token-counter.js';

// The shape of every request booty sends, and what goes into it, what stays the same first:
//
//   tools:    [the step's answer tool]                                  ┐
//   system:   [rules] [its instructions] [repository context ◀ cache]   │ the same bytes on every
//   messages: user [issue, analysis, the round's request ◀ cache_control]│ attempt of the job
//                  [attempt 1] … [attempt n-1 ◀] [attempt n ◀]          ┘ grows by one block an attempt
//                  [the step's task (and a changed file's text the prefix lacks)] varies, uncached
//
// The API takes at most four breakpoints: the last two move forward with the attempts, so each
// request reads the prefix the one before it wrote (up to its last attempt) and writes one block
// more. The repository context takes a fixed share of the input budget, so it does not shift as
// the history grows; the history takes at most its own share, so a long loop drops its oldest
// attempts before it could crowd out the repository.

export interface PlanInput {
  step: 'analyze' | 'generate' | 'refine' | 'question';
  model: string;
  tool: Tool;
  job: JobContext;
  reader: RepoReader;
  tree: string[];
  /** Candidate files, most relevant first. */
  ranked: string[];
  /** The first user block: stable for the whole job. */
  stable: string;
  /** The earlier attempts' blocks, oldest first: each the same bytes on every later attempt. */
  history: string[];
  /** The step's own text, always sent. */
  head: string;
  /** The current text of each file the job changed, sent where the request cannot show it otherwise. */
  currentFiles?: CurrentFile[];
  /** The repository's instructions for agents, delimited (repo-instructions.ts): in the cached prefix. */
  instructions?: string | null;
  maxInputTokens: number;
}

/**
 * How the model could rebuild a changed file from the cached prefix instead: from its attempts'
 * patches alone (a new file: its first patch shows it whole), from the repository context's copy at
 * the base commit with the patches on top, or not at all (a patch was cut). Either way only while
 * every attempt is in the request, and, from the base, while that copy is.
 */
export interface CurrentFile {
  path: string;
  text: string;
  rebuiltFrom: 'patches' | 'base' | null;
}

export interface Plan {
  render: (keep: Keep) => CountableRequest;
  repoFiles: RepoFile[];
  sections: string[];
}

const ephemeral = { type: 'ephemeral' } as const;
/** Breakpoints left for the history once the repository context and the stable block have theirs. */
const MOVING_BREAKPOINTS = 2;
/** The share of the input budget the attempts may take: past it, the oldest are left out. */
export const HISTORY_SHARE = 0.3;
const MAX_CANDIDATES = 400;
const READ_CHUNK = 50;

export async function planRequest(input: PlanInput): Promise<Plan> {
  const history = fitHistory(input.history, Math.floor(input.maxInputTokens * HISTORY_SHARE));
  const repoName = `${input.job.repo.owner}/${input.job.repo.name}`;
  const baseSha = input.job.workspace?.baseSha ?? null;
  const build = (repoText: string, sections: string[]): CountableRequest => ({
    model: input.model,
    tools: [input.tool],
    tool_choice: { type: 'tool', name: input.tool.name, disable_parallel_tool_use: true },
    system: [
      { type: 'text', text: SYSTEM_PROMPT },
      ...(input.instructions ? [{ type: 'text' as const, text: input.instructions }] : []),
      { type: 'text', text: repoText, cache_control: ephemeral },
    ],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: input.stable, cache_control: ephemeral },
          ...history.map((text, i) =>
            i >= history.length - MOVING_BREAKPOINTS
              ? { type: 'text' as const, text, cache_control: ephemeral }
              : { type: 'text' as const, text },
          ),
          { type: 'text', text: [input.head, ...sections].join('\n\n') },
        ],
      },
    ],
  });

  const empty = repositoryContext(repoName, baseSha, { tree: [], treeOmitted: 0, files: [] });
  const base = estimateRequestTokens(build(empty, []));
  const fixedPrefix =
    estimateTokens(SYSTEM_PROMPT) +
    estimateTokens(input.instructions ?? '') +
    estimateTokens(JSON.stringify(input.tool));
  const repoBudget = Math.min(
    Math.floor(input.maxInputTokens * REPO_SHARE[input.step]) - fixedPrefix,
    input.maxInputTokens - base,
  );

  const candidates = await readCandidates(input.reader, input.ranked, repoBudget * 3);
  const repo = selectRepoContext({ tree: input.tree, ranked: candidates, budget: repoBudget });
  const repoText = (files: number) =>
    repositoryContext(repoName, baseSha, { ...repo, files: repo.files.slice(0, files) });
  const sectionBudget =
    input.maxInputTokens - base - estimateTokens(repoText(repo.files.length)) + estimateTokens(empty);
  // Left-out attempts take their patches with them: no changed file can be rebuilt then.
  const wholeHistory = history.length === input.history.length;
  const rebuilt = (f: CurrentFile, shown: RepoFile[]) =>
    wholeHistory &&
    (f.rebuiltFrom === 'patches' || (f.rebuiltFrom === 'base' && shown.some((s) => s.path === f.path)));
  const current = input.currentFiles ?? [];
  const sections = selectSections(
    current.filter((f) => !rebuilt(f, repo.files)).map((f) => f.text),
    sectionBudget,
  );
  /** Files whose base copy the fitting trimmed from the repository context: their text is sent instead. */
  const trimmed = (keep: Keep) =>
    current
      .filter((f) => rebuilt(f, repo.files) && !rebuilt(f, repo.files.slice(0, keep.repoFiles)))
      .map((f) => f.text);

  return {
    render: (keep) =>
      build(repoText(keep.repoFiles), [...sections.slice(0, keep.sections), ...trimmed(keep)]),
    repoFiles: repo.files,
    sections,
  };
}

/**
 * The attempts within `budget` estimated tokens: the latest always, then as many before it as fit.
 * Left-out attempts are named, so the model knows the story starts later. Cutting changes the
 * cached prefix, so it happens only when a long loop would otherwise crowd out the repository.
 */
export function fitHistory(history: string[], budget: number): string[] {
  let from = 0;
  let used = history.reduce((n, h) => n + estimateTokens(h), 0);
  while (from < history.length - 1 && used > budget) used -= estimateTokens(history[from++]!);
  if (from === 0) return history;
  return [
    `(The ${from} oldest attempt${from === 1 ? ' is' : 's are'} left out here, to keep the request within its size.)\n${history[from]}`,
    ...history.slice(from + 1),
  ];
}

/** Reads files in relevance order until more text is in hand than the budget could hold. */
async function readCandidates(reader: RepoReader, ranked: string[], maxChars: number): Promise<RepoFile[]> {
  const files: RepoFile[] = [];
  let chars = 0;
  const order = ranked.slice(0, MAX_CANDIDATES);
  // A chunk at a time, one git process each: most budgets fill within the first chunk.
  for (let i = 0; i < order.length && chars < maxChars; i += READ_CHUNK) {
    const chunk = order.slice(i, i + READ_CHUNK);
    const texts = await reader.readFiles(chunk);
    for (const path of chunk) {
      if (chars >= maxChars) break;
      const content = texts.get(path) ?? null;
      // A file bigger than the whole budget could never be selected.
      if (content === null || content.length > maxChars) continue;
      files.push({ path, content });
      chars += content.length;
    }
  }
  return files;
}
