import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../../src/env.js';
import { classifyDelivery } from '../../../src/forges/github/classify.js';
import { intakeConfig } from '../../../src/intake/intake-config.js';
import { closedPayload, example, labelPayload } from '../../gateway/gateway-harness.js';

// Given a verified payload, when it is classified, then the supervisor is asked for exactly this.

const config = (env: Record<string, string> = {}) =>
  intakeConfig(loadEnv({ GITHUB_WEBHOOK_SECRET: 's', BOOTY_TRIGGER_LABEL: 'booty', ...env }));

describe('classifyDelivery', () => {
  it('reads a request from issues.labeled, with the installation when there is one', () => {
    const p = labelPayload('labeled', { label: 'Booty', issue: 3 });
    p.issue.body = null;
    p.installation = { id: 42, node_id: 'x' };
    expect(classifyDelivery('issues', p, config())).toEqual({
      action: 'labeled',
      intent: {
        kind: 'request',
        request: {
          repo: { owner: 'Codertocat', name: 'Hello-World' },
          issue: {
            number: 3,
            title: 'Spelling error in the README file',
            body: '',
            url: 'https://github.com/Codertocat/Hello-World/issues/1',
          },
          triggerLabel: 'Booty',
          sender: 'Codertocat',
          installationId: 42,
        },
      },
    });
  });

  it('asks for plan approval when the issue also carries the booty:plan label, in any case', () => {
    const plain = labelPayload('labeled');
    const request = (p: unknown) => (classifyDelivery('issues', p, config()).intent as any).request;
    expect(request(plain)).not.toHaveProperty('planApproval');
    const planned = labelPayload('labeled');
    planned.issue.labels = [{ name: 'bug' }, { name: 'Booty:Plan' }];
    expect(request(planned)).toMatchObject({ planApproval: true });
  });

  it('matches BOOTY_REPOS globs regardless of case, and an empty list allows every repository', () => {
    const p = labelPayload('labeled', { repo: 'ACME/Widgets' });
    expect(classifyDelivery('issues', p, config({ BOOTY_REPOS: 'acme/*' })).intent.kind).toBe('request');
    expect(classifyDelivery('issues', p, config({ BOOTY_REPOS: 'other/*' })).intent.kind).toBe('ignore');
    expect(classifyDelivery('issues', p, config()).intent.kind).toBe('request');
  });

  it('ignores the trigger label on an issue that is already closed', () => {
    const p = labelPayload('labeled');
    p.issue.state = 'closed';
    expect(classifyDelivery('issues', p, config()).intent).toEqual({
      kind: 'ignore',
      reason: 'the issue is closed',
    });
  });

  it('cancels on unlabeling the trigger label or closing, even on a repository no longer allowed', () => {
    const c = config({ BOOTY_REPOS: 'acme/*' });
    expect(classifyDelivery('issues', labelPayload('unlabeled', { issue: 4 }), c).intent).toEqual({
      kind: 'cancel',
      repo: { owner: 'Codertocat', name: 'Hello-World' },
      issue: 4,
      reason: 'unlabeled',
      sender: 'Codertocat',
    });
    expect(classifyDelivery('issues', closedPayload(), c).intent).toMatchObject({
      kind: 'cancel',
      reason: 'closed',
    });
  });

  it('ignores other issues actions and other events, keeping their action', () => {
    expect(classifyDelivery('issues', example('issues', 'edited'), config())).toMatchObject({
      action: 'edited',
      intent: { kind: 'ignore' },
    });
    expect(classifyDelivery('star', example('star'), config())).toMatchObject({
      action: 'created',
      intent: { kind: 'ignore', reason: 'event star starts nothing' },
    });
  });

  it('refuses a payload of the wrong shape with BOOTY_E_WEBHOOK_PAYLOAD naming the field', () => {
    const p = labelPayload('labeled');
    p.repository.owner = null;
    expect(() => classifyDelivery('issues', p, config())).toThrow(
      expect.objectContaining({
        code: 'BOOTY_E_WEBHOOK_PAYLOAD',
        message: expect.stringContaining('repository.owner'),
      }),
    );
    const q = labelPayload('labeled');
    delete q.label;
    expect(() => classifyDelivery('issues', q, config())).toThrow(/label: required/);
  });
});
