import { bareDir } from './github-sim-git.js';
import type { Background, HookBus } from './github-sim-hooks.js';
import type { Urls } from './github-sim-json.js';
import type { LogLinks } from './github-sim-log-links.js';
import type { SimRepo, SimStore } from './github-sim-state.js';

// What the parts of the simulator that change state share: the state, where the API answers,
// where the bare repositories live, the webhook bus, and the work done after a reply.

export interface SimWorld {
  store: SimStore;
  urls: Urls;
  /** The simulator's directory: the state file and, under git/, the bare repositories. */
  root: string;
  hooks: HookBus;
  background: Background;
  logLinks: LogLinks;
}

export const bareOf = (world: SimWorld, repo: SimRepo) => bareDir(world.root, repo.owner, repo.name);
