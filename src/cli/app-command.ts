import { BootyError } from '../errors.js';
import type { Command } from './command.js';

// `booty app create`: registers booty as a GitHub App through GitHub's manifest flow and writes
// its credentials to .env. This file only describes the command; its work loads when it runs.

export const appCommand: Command = {
  name: 'app',
  usage: [
    'Usage: booty app create [--org ORG] [--name NAME] [--webhook-url URL] [--env PATH] [--force]',
    '',
    'Registers booty as a GitHub App from its manifest (app.yml: the events and permissions booty',
    'needs). It prints a local page to open in a browser signed in to GitHub; that page sends the',
    'manifest to GitHub, where you create the App; GitHub sends the browser back here, and booty',
    "writes the App's id, private key and webhook secret (APP_ID, PRIVATE_KEY, WEBHOOK_SECRET,",
    'GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET) to .env, which `booty serve` reads.',
    '',
    '  --org ORG          register it under an organization (default: your account)',
    '  --name NAME        the App’s name, unique on GitHub (default: booty; GitHub lets you change it)',
    '  --webhook-url URL  where GitHub sends webhooks (default: WEBHOOK_PROXY_URL, else',
    '                     $BOOTY_PUBLIC_URL/webhooks, else a new smee.io channel for development)',
    '  --env PATH         the file to write (default: ./.env)',
    '  --force            replace the App settings of an existing file; its other settings stay',
    '  --github-url URL   GitHub’s web address (default: from GITHUB_API_URL, else https://github.com)',
    '  --manifest PATH    another manifest (default: the app.yml booty ships)',
    '  --smee URL         the smee server that makes a channel (default: https://smee.io)',
    '  --port N           the local page’s port (default: any free port)',
  ].join('\n'),
  options: {
    org: { type: 'string' },
    name: { type: 'string' },
    'webhook-url': { type: 'string' },
    env: { type: 'string' },
    force: { type: 'boolean' },
    'github-url': { type: 'string' },
    manifest: { type: 'string' },
    smee: { type: 'string' },
    port: { type: 'string' },
  },
  positionals: ['action'],
  async run({ values, positionals }, io) {
    if (positionals[0] !== 'create') {
      throw new BootyError('BOOTY_E_USAGE', {
        command: 'app',
        reason: `unknown action ${JSON.stringify(positionals[0])}; the action is create`,
      });
    }
    const { createApp } = await import('../app/create-app.js');
    return createApp(values as Parameters<typeof createApp>[0], io);
  },
};
