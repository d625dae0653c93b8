import { BootyError } from '../errors.js';
import type { RepoRef } from '../events/job-events.js';
import { mergeConfig, parseConfigFile, type RepoConfigFile } from './repo-config.js';

// Probot's conventions for shared settings. A repository without a config file takes its
// organization's: `.github/booty.yml` in the owner's `.github` repository. A file may say
// `_extends: <base>` to build on another (`.github`, `other-repo`, `owner/repo`, `owner/repo:path.yml`);
// the file's keys override the base's. Every file is read from its repository's default branch.

/** A config file in some repository. */
export interface ConfigRef {
  owner: string;
  name: string;
  path: string;
}

export type RemoteFile = { kind: 'file'; text: string } | { kind: 'no-file' } | { kind: 'no-repo' };

/** Reads a file from another repository's default branch. */
type ReadRemote = (ref: ConfigRef) => Promise<RemoteFile>;

/** Where an organization keeps its settings, and where a base is read when `_extends` names no file. */
const ORG_REPO = '.github';
const ORG_CONFIG_PATH = '.github/booty.yml';

/** How many files one chain may hold: a repository's, and bases up to this many in all. */
const MAX_CHAIN = 5;

const refLabel = (ref: ConfigRef) => `${ref.owner}/${ref.name}:${ref.path}`;

const EXTENDS = /^(?:([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/)?([\w.-]+)(?::([\w./-]+\.ya?ml))?$/;

const invalid = (file: string, problem: string) =>
  new BootyError('BOOTY_E_CONFIG_INVALID', { path: file, field: '_extends', problem });

/** The base an `_extends` value names, read relative to the owner of the file that says it. */
export function parseExtends(value: string, owner: string, file: string): ConfigRef {
  const m = EXTENDS.exec(value.trim());
  if (!m || m[2] === '.' || m[2] === '..' || m[3]?.split('/').some((s) => s === '..' || s === '')) {
    throw invalid(
      file,
      `is ${JSON.stringify(value)}, not a repository: write .github, repo, owner/repo, or owner/repo:path/to/file.yml`,
    );
  }
  return { owner: m[1] ?? owner, name: m[2]!, path: m[3] ?? ORG_CONFIG_PATH };
}

interface Layer {
  label: string;
  data: RepoConfigFile;
}

/**
 * The settings that apply to a repository: its own file with every base it extends, or else its
 * organization's file (with its bases), or null when there is none. `path` names the files, the
 * repository's first. Errors name the file at fault: bad YAML in a base, a base that is not
 * there, a loop, a chain too long.
 */
export async function resolveConfigChain(input: {
  repo: RepoRef;
  own: { path: string; text: string } | null;
  read: ReadRemote;
}): Promise<{ path: string; data: RepoConfigFile } | null> {
  const { repo, read } = input;
  let current: { label: string; text: string; owner: string; key: string };
  if (input.own) {
    const key = refLabel({ owner: repo.owner, name: repo.name, path: input.own.path });
    current = { label: input.own.path, text: input.own.text, owner: repo.owner, key };
  } else {
    // The organization's own settings repository has nothing above it to fall back to.
    if (repo.name.toLowerCase() === ORG_REPO) return null;
    const ref = { owner: repo.owner, name: ORG_REPO, path: ORG_CONFIG_PATH };
    const found = await read(ref);
    if (found.kind !== 'file') return null;
    current = { label: refLabel(ref), text: found.text, owner: ref.owner, key: refLabel(ref) };
  }

  const layers: Layer[] = [];
  const seen = [current.key.toLowerCase()];
  for (;;) {
    const data = parseConfigFile(current.label, current.text);
    layers.push({ label: current.label, data });
    if (data._extends === undefined) break;
    const ref = parseExtends(data._extends, current.owner, current.label);
    const key = refLabel(ref);
    if (seen.includes(key.toLowerCase())) {
      throw invalid(current.label, `makes a loop: ${[...layers.map((l) => l.label), key].join(' extends ')}`);
    }
    if (layers.length >= MAX_CHAIN) {
      throw invalid(
        current.label,
        `goes more than ${MAX_CHAIN} files deep (${layers.map((l) => l.label).join(' extends ')})`,
      );
    }
    const found = await read(ref);
    if (found.kind === 'no-repo') {
      throw invalid(
        current.label,
        `names ${ref.owner}/${ref.name}, a repository that does not exist or that booty cannot read (install the App there too)`,
      );
    }
    if (found.kind === 'no-file') {
      throw invalid(current.label, `names ${key}, which does not exist on that repository's default branch`);
    }
    seen.push(key.toLowerCase());
    current = { label: key, text: found.text, owner: ref.owner, key };
  }
  const data = layers.reduceRight<RepoConfigFile>((base, layer) => mergeConfig(base, layer.data), {});
  return { path: layers.map((l) => l.label).join(' extends '), data };
}
