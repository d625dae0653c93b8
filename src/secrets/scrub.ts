// Nothing secret is ever published. Text that leaves booty for a comment, a PR body, the log or a
// log line (test output, git and HTTP errors) goes through here: the values of every secret booty
// holds are removed, and so is anything shaped like a credential, whoever it belongs to.

const TOKEN_SHAPES = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  /\bsk-ant-[A-Za-z0-9_-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  // user:password@ in a URL (git and HTTP errors echo the URL they used)
  /(?<=https?:\/\/)[^/@\s]+(?=@)/g,
];

const REDACTED = '[redacted]';

/** Removes secret values (and their base64 form, as in a Basic auth header) and token shapes. */
export function scrubSecrets(text: string, secrets: readonly (string | undefined | null)[] = []): string {
  let out = text;
  const values = secrets
    .filter((s): s is string => typeof s === 'string' && s.trim().length >= 6)
    .flatMap((s) => [s, s.trim(), Buffer.from(s).toString('base64')])
    .sort((a, b) => b.length - a.length);
  for (const value of values) out = out.split(value).join(REDACTED);
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, REDACTED);
  return out;
}

/** A scrubber bound to a source of the secrets booty holds right now (tokens minted per job too). */
export type Scrubber = (text: string) => string;

export const scrubberOf =
  (secrets: () => readonly (string | undefined | null)[]): Scrubber =>
  (text) =>
    scrubSecrets(text, secrets());
