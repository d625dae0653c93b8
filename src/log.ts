import { pino } from 'pino';

// One JSON logger for the process. Secrets are redacted by path wherever they might appear, and
// child loggers carry the delivery id and the job id.

export const redactPaths = [
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers["x-hub-signature-256"]',
  'apiKey',
  '*.apiKey',
  'secret',
  '*.secret',
  'privateKey',
  '*.privateKey',
  'env.GITHUB_TOKEN',
  'env.GITHUB_PRIVATE_KEY',
  'env.GITHUB_WEBHOOK_SECRET',
  'env.GITHUB_WEBHOOK_SECRET_PREVIOUS',
  'env.ANTHROPIC_API_KEY',
];

export type Logger = pino.Logger;

export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  return pino(
    {
      name: 'booty',
      level: options.level ?? 'info',
      redact: { paths: redactPaths, censor: '[redacted]' },
    },
    options.destination,
  );
}

/** Removes anything that looks like a credential from free text (git and HTTP errors echo URLs). */
export function scrubSecrets(text: string, secrets: (string | undefined)[] = []): string {
  let out = text.replace(/(https?:\/\/)[^/@\s]+@/g, '$1[redacted]@');
  out = out.replace(
    /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|sk-ant-[A-Za-z0-9_-]{10,})/g,
    '[redacted]',
  );
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}
