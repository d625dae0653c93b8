import { BootyError } from '../errors.js';
import { type CountableRequest, estimateTokens, type TokenCounter } from './token-counter.js';

// Keeps every request within BOOTY_MAX_INPUT_TOKENS. Selection is by estimate (cheap, and the same
// every time for the same inputs); the final request is counted, and if the count is still over the
// least relevant parts go first: the trimmable sections of the step, then repository files from the
// end of the relevance order.

export interface RepoFile {
  path: string;
  content: string;
}

export interface RepoContext {
  /** The whole tree, or as much of it as fits, sorted. */
  tree: string[];
  /** Paths left out of the tree. */
  treeOmitted: number;
  /** File contents, most relevant first. */
  files: RepoFile[];
}

/** The share of the input budget the repository context may take; the rest is the step's own. */
export const REPO_SHARE = { analyze: 0.7, generate: 0.5, refine: 0.5, question: 0.7 } as const;

const TREE_SHARE = 0.25;

export const fileBlock = (file: RepoFile) => `<file path="${file.path}">\n${file.content}\n</file>`;
const fileTokens = (file: RepoFile) => estimateTokens(fileBlock(file)) + 1;
const pathTokens = (p: string) => estimateTokens(p) + 1;

/**
 * The repository context within `budget` estimated tokens: the tree first (capped at a quarter,
 * relevant paths kept), then files in relevance order, skipping any that does not fit.
 */
export function selectRepoContext(input: {
  tree: string[];
  ranked: RepoFile[];
  budget: number;
}): RepoContext {
  const budget = Math.max(0, input.budget);
  const allTree = input.tree.reduce((n, p) => n + pathTokens(p), 0);
  let tree = input.tree;
  let used = allTree;
  if (allTree > budget * TREE_SHARE) {
    const keep = new Set<string>();
    used = 0;
    const byRelevance = [...input.ranked.map((f) => f.path), ...input.tree];
    for (const p of byRelevance) {
      if (keep.has(p)) continue;
      if (used + pathTokens(p) > budget * TREE_SHARE) continue;
      keep.add(p);
      used += pathTokens(p);
    }
    tree = input.tree.filter((p) => keep.has(p));
  }
  const files: RepoFile[] = [];
  for (const file of input.ranked) {
    const cost = fileTokens(file);
    if (used + cost > budget) continue;
    files.push(file);
    used += cost;
  }
  return { tree, treeOmitted: input.tree.length - tree.length, files };
}

/** Sections in order of relevance, each kept if it still fits. */
export function selectSections(sections: string[], budget: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const s of sections) {
    const cost = estimateTokens(s) + 1;
    if (used + cost > budget) continue;
    kept.push(s);
    used += cost;
  }
  return kept;
}

export interface Keep {
  repoFiles: number;
  sections: number;
}

export interface FitInput {
  step: string;
  maxInputTokens: number;
  counter: TokenCounter;
  signal?: AbortSignal;
  /** The request keeping the first `keep.repoFiles` files and `keep.sections` sections. */
  render: (keep: Keep) => CountableRequest;
  repoFiles: RepoFile[];
  sections: string[];
}

export interface Fitted {
  request: CountableRequest;
  inputTokens: number;
  exact: boolean;
  keep: Keep;
}

/** Counts the request and trims it until it fits, or fails the step if nothing is left to trim. */
export async function fitRequest(input: FitInput): Promise<Fitted> {
  const keep: Keep = { repoFiles: input.repoFiles.length, sections: input.sections.length };
  for (;;) {
    const request = input.render(keep);
    const { tokens, exact } = await input.counter.count(request, input.signal);
    if (tokens <= input.maxInputTokens) return { request, inputTokens: tokens, exact, keep };
    let over = tokens - input.maxInputTokens;
    const before = keep.repoFiles + keep.sections;
    while (over > 0 && keep.sections > 0) over -= estimateTokens(input.sections[--keep.sections]!) + 1;
    while (over > 0 && keep.repoFiles > 0) over -= fileTokens(input.repoFiles[--keep.repoFiles]!);
    if (keep.repoFiles + keep.sections === before) {
      throw new BootyError('BOOTY_E_CLAUDE_CONTEXT', {
        step: input.step,
        needed: tokens,
        max: input.maxInputTokens,
      });
    }
  }
}
