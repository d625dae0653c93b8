import type { Env } from '../env.js';
import { isLoopbackHost } from '../loopback.js';

// Where a comment can send a maintainer for the whole story of a job: its page in the job view,
// at the address people reach booty by. No address, or no job view served, means no link: a link
// that answers 404 is worse than none.

/** Whether `serve` serves the job view: BOOTY_DASHBOARD=on, or unset while it listens on loopback only. */
export function dashboardServed(env: Pick<Env, 'BOOTY_DASHBOARD' | 'HOST'>): boolean {
  if (env.BOOTY_DASHBOARD !== undefined) return env.BOOTY_DASHBOARD === 'on';
  return isLoopbackHost(env.HOST);
}

/** The base of job view links, or null when there is nowhere to link to. */
export function jobViewBase(env: Pick<Env, 'BOOTY_PUBLIC_URL' | 'BOOTY_DASHBOARD' | 'HOST'>): string | null {
  return env.BOOTY_PUBLIC_URL && dashboardServed(env) ? env.BOOTY_PUBLIC_URL : null;
}

/** `https://booty.example.com/jobs/<id>/view`, keeping any path the base has. */
export function jobViewUrl(base: string, jobId: string): string {
  return `${base.replace(/\/+$/, '')}/jobs/${encodeURIComponent(jobId)}/view`;
}
