import { randomUUID } from 'node:crypto';
import { isDraftTitle, userJson } from './gitlab-sim-json.js';
import type {
  GlDelivery,
  GlIssue,
  GlMergeRequest,
  GlNote,
  GlPipeline,
  GlProject,
  GlStore,
} from './gitlab-sim-state.js';

// GitLab's webhooks as it sends them (doc/user/project/integrations/webhook_events.md): a POST with
// X-Gitlab-Event, X-Gitlab-Token (the secret token as it is, unsigned), X-Gitlab-Event-UUID and
// X-Gitlab-Instance, and the hook's JSON with object_kind, user, project and object_attributes.

export interface GlWebhookTarget {
  url: string;
  token: string;
}

export class GlHooks {
  target: GlWebhookTarget | null = null;
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly store: GlStore,
    private readonly base: () => string,
  ) {}

  private projectOf(p: GlProject) {
    return {
      id: p.id,
      name: p.path_with_namespace.split('/').at(-1),
      path_with_namespace: p.path_with_namespace,
      web_url: `${this.base()}/${p.path_with_namespace}`,
      default_branch: p.default_branch,
    };
  }

  issue(p: GlProject, i: GlIssue, actor: string, action: string, previousLabels: string[] | null) {
    const label = (title: string) => ({ id: labelId(title), title });
    this.send('Issue Hook', {
      object_kind: 'issue',
      event_type: 'issue',
      user: userJson(this.store, actor),
      project: this.projectOf(p),
      object_attributes: {
        id: p.id * 100_000 + i.iid,
        iid: i.iid,
        title: i.title,
        description: i.description,
        state: i.state,
        action,
        url: `${this.base()}/${p.path_with_namespace}/-/issues/${i.iid}`,
        labels: i.labels.map(label),
      },
      labels: i.labels.map(label),
      changes: previousLabels
        ? { labels: { previous: previousLabels.map(label), current: i.labels.map(label) } }
        : {},
    });
  }

  note(p: GlProject, n: GlNote, on: { issue: GlIssue } | { mr: GlMergeRequest }) {
    const onMr = 'mr' in on;
    this.send('Note Hook', {
      object_kind: 'note',
      event_type: 'note',
      user: userJson(this.store, n.author),
      project_id: p.id,
      project: this.projectOf(p),
      object_attributes: {
        id: n.id,
        note: n.body,
        noteable_type: onMr ? 'MergeRequest' : 'Issue',
        system: n.system,
        action: 'create',
        type: n.position ? 'DiffNote' : null,
        discussion_id: n.discussionId,
        position: n.position ? { position_type: 'text', old_path: n.position.new_path, ...n.position } : null,
        url: `${this.base()}/${p.path_with_namespace}/-/${onMr ? 'merge_requests' : 'issues'}/${onMr ? on.mr.iid : on.issue.iid}#note_${n.id}`,
      },
      ...(onMr
        ? { merge_request: { iid: on.mr.iid, source_branch: on.mr.source_branch, title: on.mr.title } }
        : {
            issue: {
              id: p.id * 100_000 + on.issue.iid,
              iid: on.issue.iid,
              title: on.issue.title,
              description: on.issue.description,
              state: on.issue.state,
              url: `${this.base()}/${p.path_with_namespace}/-/issues/${on.issue.iid}`,
              labels: on.issue.labels.map((title) => ({ id: labelId(title), title })),
            },
          }),
    });
  }

  mergeRequest(
    p: GlProject,
    mr: GlMergeRequest,
    actor: string,
    action: string,
    extra: { oldrev?: string; changes?: Record<string, unknown> } = {},
  ) {
    const draft = isDraftTitle(mr.title);
    this.send('Merge Request Hook', {
      object_kind: 'merge_request',
      event_type: 'merge_request',
      user: userJson(this.store, actor),
      project: this.projectOf(p),
      object_attributes: {
        iid: mr.iid,
        title: mr.title,
        state: mr.state,
        action,
        source_branch: mr.source_branch,
        target_branch: mr.target_branch,
        draft,
        work_in_progress: draft,
        last_commit: { id: mr.sha },
        url: `${this.base()}/${p.path_with_namespace}/-/merge_requests/${mr.iid}`,
        ...(extra.oldrev ? { oldrev: extra.oldrev } : {}),
      },
      changes: extra.changes ?? {},
    });
  }

  pipeline(p: GlProject, pl: GlPipeline, mr: GlMergeRequest | null) {
    this.send('Pipeline Hook', {
      object_kind: 'pipeline',
      object_attributes: {
        id: pl.id,
        ref: pl.ref,
        tag: false,
        sha: pl.sha,
        status: pl.status,
        source: 'push',
      },
      merge_request: mr ? { iid: mr.iid, source_branch: mr.source_branch, title: mr.title } : null,
      project: this.projectOf(p),
      builds: pl.jobs.map((j) => ({ id: j.id, name: j.name, stage: 'test', status: j.status })),
    });
  }

  /** Sends one delivery; a failure is kept with its status, for a redelivery. */
  send(event: string, payload: Record<string, unknown>): void {
    const delivery: GlDelivery = { uuid: randomUUID(), event, body: JSON.stringify(payload), status: null };
    this.store.state.deliveries.push(delivery);
    this.store.save();
    this.track(this.post(delivery));
  }

  redeliver(delivery: GlDelivery): Promise<void> {
    return this.track(this.post(delivery));
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
    return p;
  }

  private async post(delivery: GlDelivery): Promise<void> {
    const target = this.target;
    if (!target) return;
    try {
      const res = await fetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'GitLab/17.0.0',
          'x-gitlab-event': delivery.event,
          'x-gitlab-token': target.token,
          'x-gitlab-event-uuid': delivery.uuid,
          'x-gitlab-instance': this.base(),
          'x-gitlab-webhook-uuid': '00000000-0000-4000-8000-000000000001',
        },
        body: delivery.body,
      });
      await res.arrayBuffer();
      delivery.status = res.status;
    } catch {
      delivery.status = 0;
    }
    this.store.save();
  }

  /** Resolves once every delivery under way was tried, those it caused included. */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }
}

const labelId = (title: string) => [...title].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1_000_000, 7);
