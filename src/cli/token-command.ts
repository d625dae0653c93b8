import { BootyError } from '../errors.js';
import type { ApiScope } from '../store/api-tokens.js';
import type { EventStore } from '../store/event-store.js';
import type { Command } from './command.js';
import { table } from './format.js';
import { dbHelp, dbOption, storeOf } from './store-option.js';

// `booty token`: the tokens of the jobs API, kept (as hashes) in the event store's database, so
// every worker on it accepts them.

export const tokenCommand: Command = {
  name: 'token',
  usage: [
    'Usage: booty token create --scope read|write [--name NAME] [--db PATH|URL]',
    '       booty token list [--json] [--db PATH|URL]',
    '       booty token revoke <id> [--db PATH|URL]',
    '',
    'Tokens for the jobs API (/jobs, see README) and the job view. A read token lists and shows',
    'jobs; a write token also starts, cancels and retries them. `create` prints the token once:',
    'booty keeps only its hash. `revoke` stops a token at once, on every worker.',
    '',
    '  --scope read|write  what the token may do',
    '  --name NAME         who or what holds it (default: the scope and the date)',
    '  --json              list as JSON',
    dbHelp,
  ].join('\n'),
  options: { ...dbOption, scope: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean' } },
  positionals: ['action', 'id?'],
  async run({ values, positionals }, io) {
    const [action, id] = positionals;
    const usage = (reason: string) => new BootyError('BOOTY_E_USAGE', { command: 'token', reason });
    if (action !== 'create' && action !== 'list' && action !== 'revoke')
      throw usage(`unknown action ${JSON.stringify(action)}; the actions are create, list and revoke`);
    if (action === 'revoke' && !id) throw usage('revoke needs the id of a token (`booty token list`)');
    if (action !== 'revoke' && id) throw usage(`unexpected argument ${JSON.stringify(id)}`);
    const scope = values.scope as string | undefined;
    if (action === 'create' && scope !== 'read' && scope !== 'write')
      throw usage(
        `create needs --scope read or --scope write${scope ? `, not ${JSON.stringify(scope)}` : ''}`,
      );

    const location = storeOf(values, io.env);
    const { openExistingStore, openStore } = await import('../main/open-store.js');
    // A token is the first thing a new deployment may make: create opens (and makes) the store.
    const store: EventStore = action === 'create' ? openStore(location) : await openExistingStore(location);
    try {
      const { apiTokensOf } = await import('../store/open-api-tokens.js');
      const tokens = apiTokensOf(store);
      const now = Date.now();
      if (action === 'create') {
        const { newApiTokenSecret } = await import('../store/api-token-secret.js');
        const secret = newApiTokenSecret();
        const name =
          (values.name as string | undefined)?.trim() ||
          `${scope} ${new Date(now).toISOString().slice(0, 10)}`;
        await tokens.create({
          id: secret.id,
          name,
          scope: scope as ApiScope,
          hash: secret.hash,
          createdAt: now,
        });
        io.err(`token ${secret.id} (${name}, ${scope}): keep it now, booty shows it only this once`);
        io.out(secret.token);
        return 0;
      }
      if (action === 'revoke') {
        if (!(await tokens.revoke(id!, now))) throw new BootyError('BOOTY_E_API_TOKEN_UNKNOWN', { id: id! });
        io.out(`token ${id} is revoked`);
        return 0;
      }
      const all = await tokens.list();
      if (values.json) {
        io.out(
          JSON.stringify(
            all.map((t) => ({
              ...t,
              createdAt: iso(t.createdAt),
              revokedAt: t.revokedAt && iso(t.revokedAt),
            })),
            null,
            2,
          ),
        );
        return 0;
      }
      if (all.length === 0) {
        io.out(`No tokens yet: \`${io.self} token create --scope read\` makes one.`);
        return 0;
      }
      io.out(
        table(
          ['ID', 'SCOPE', 'CREATED', 'REVOKED', 'NAME'],
          all.map((t) => [t.id, t.scope, iso(t.createdAt), t.revokedAt ? iso(t.revokedAt) : '', t.name]),
        ),
      );
      return 0;
    } finally {
      await store.close();
    }
  },
};

const iso = (ms: number) => new Date(ms).toISOString();
