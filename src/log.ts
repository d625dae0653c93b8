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
