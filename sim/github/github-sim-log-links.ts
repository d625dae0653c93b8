import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { jobLog } from './github-sim-job-log.js';

// GitHub answers a log download with a redirect to a short-lived signed URL on its blob storage,
// which needs no token. The simulator serves the same kind of URL, signed with a key of its own
// and good for a minute, as GitHub's are.

const LIFETIME_MS = 60_000;
const PATH = /^\/actions-results\/([^/]+)\/([^/]+)\/jobs\/(\d+)\/job-logs\.txt$/;

export class LogLinks {
  private readonly key = randomBytes(32);

  private sign(text: string) {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }

  link(base: string, owner: string, name: string, jobId: number, now: Date): string {
    const path = `/actions-results/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/jobs/${jobId}/job-logs.txt`;
    const expires = new Date(now.getTime() + LIFETIME_MS).toISOString();
    const query = new URLSearchParams({
      rsct: 'text/plain',
      se: expires,
      sig: this.sign(`${path}\n${expires}`),
    });
    return `${base}${path}?${query}`;
  }

  /** Whether a URL is one of these links; what it names when it is good and unexpired. */
  static isLink(pathname: string): boolean {
    return PATH.test(pathname);
  }

  check(url: URL, now: Date): { owner: string; name: string; jobId: number } | 'expired' | null {
    const m = PATH.exec(url.pathname);
    const expires = url.searchParams.get('se') ?? '';
    const given = Buffer.from(url.searchParams.get('sig') ?? '');
    const wanted = Buffer.from(this.sign(`${url.pathname}\n${expires}`));
    if (!m || given.length !== wanted.length || !timingSafeEqual(given, wanted)) return null;
    if (Date.parse(expires) <= now.getTime()) return 'expired';
    return { owner: decodeURIComponent(m[1]!), name: decodeURIComponent(m[2]!), jobId: Number(m[3]) };
  }
}

type Named = { owner: string; name: string; jobId: number };

/** A log link's answer: the job's log as plain text, or blob storage's XML refusal. */
export function logLinkReply(
  links: LogLinks,
  jobOf: (named: Named) => Parameters<typeof jobLog>[0] | undefined,
  url: URL,
  now: Date,
) {
  const named = links.check(url, now);
  const job = named && named !== 'expired' ? jobOf(named) : undefined;
  if (job)
    return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: jobLog(job) };
  const reason = named === 'expired' ? 'Signed expiry time has expired' : 'Signature did not match';
  return {
    status: 403,
    headers: { 'content-type': 'application/xml' },
    body: `<?xml version="1.0" encoding="utf-8"?><Error><Code>AuthenticationFailed</Code><AuthenticationErrorDetail>${reason}</AuthenticationErrorDetail></Error>`,
  };
}
