import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { BootyError } from '../errors.js';
import { packageRoot } from '../package-root.js';

// booty's GitHub App manifest: app.yml at the package root holds what does not change (events,
// permissions, description); the rest is filled in for each registration (name, homepage, the
// webhook URL and the local page GitHub sends the browser back to).

/** The app.yml booty ships, at the package root. */
export const bundledManifest = path.join(packageRoot, 'app.yml');

const Level = z.enum(['read', 'write', 'admin']);

const ManifestTemplate = z
  .object({
    name: z.string().min(1).optional(),
    url: z.url().optional(),
    description: z.string().optional(),
    public: z.boolean().optional(),
    default_events: z.array(z.string().min(1)),
    default_permissions: z.record(z.string(), Level),
    hook_attributes: z.object({ url: z.url().optional(), active: z.boolean().optional() }).optional(),
  })
  .loose();
export type ManifestTemplate = z.infer<typeof ManifestTemplate>;

export function readManifest(file = bundledManifest): ManifestTemplate {
  const bad = (problem: string) =>
    new BootyError('BOOTY_E_USAGE', {
      command: 'app',
      reason: `${file} is not a GitHub App manifest: ${problem}`,
    });
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw bad(`cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    throw bad(`not valid YAML (${(err as Error).message.split('\n')[0]})`);
  }
  const parsed = ManifestTemplate.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw bad(`${issue.path.join('.') || 'the file'} ${issue.message}`);
  }
  return parsed.data;
}

/** The manifest GitHub receives for one registration. */
export function manifestFor(
  template: ManifestTemplate,
  fill: { name: string; homepage: string; webhookUrl: string; redirectUrl: string },
) {
  return {
    ...template,
    name: fill.name,
    url: template.url ?? fill.homepage,
    hook_attributes: { ...template.hook_attributes, url: fill.webhookUrl, active: true },
    redirect_url: fill.redirectUrl,
    public: template.public ?? false,
  };
}
