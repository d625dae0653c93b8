import fs from 'node:fs';
import path from 'node:path';

// What the GitLab simulator keeps: projects with their issues, merge requests, notes, award emoji,
// pipelines and jobs, people and tokens. One JSON file in the simulator's directory, written on
// every change, so a restart in the same directory continues (the demo resumes on it).

export interface GlUser {
  id: number;
  username: string;
}

export interface GlNote {
  id: number;
  body: string;
  author: string;
  system: boolean;
  created_at: string;
  updated_at: string;
  /** A note on a diff line of an MR: where it is. */
  position: { new_path: string; new_line: number } | null;
  discussionId: string;
  resolved: boolean;
  awards: string[];
}

export interface GlIssue {
  iid: number;
  title: string;
  description: string;
  state: 'opened' | 'closed';
  labels: string[];
  author: string;
  notes: GlNote[];
  awards: { name: string; user: string }[];
}

export interface GlMergeRequest {
  iid: number;
  title: string;
  description: string;
  state: 'opened' | 'closed' | 'merged';
  source_branch: string;
  target_branch: string;
  sha: string;
  author: string;
  notes: GlNote[];
}

export interface GlJob {
  id: number;
  name: string;
  status: string;
  trace: string;
  /** How the job ends when the test finishes the pipeline (completePipelines): a retry ends the same. */
  planned?: 'success' | 'failed';
  plannedTrace?: string;
}

export interface GlPipeline {
  id: number;
  sha: string;
  ref: string;
  status: string;
  jobs: GlJob[];
  retries: number;
}

export interface GlProject {
  id: number;
  path_with_namespace: string;
  default_branch: string;
  /** Access levels by username: 30 Developer, 40 Maintainer, 10 Guest. */
  members: Record<string, number>;
  issues: GlIssue[];
  mergeRequests: GlMergeRequest[];
  pipelines: GlPipeline[];
}

export interface GlDelivery {
  uuid: string;
  event: string;
  body: string;
  status: number | null;
}

export interface GlState {
  nextId: number;
  users: GlUser[];
  /** Tokens and their scopes (default api). */
  tokens: { token: string; username: string; scopes?: string[] }[];
  projects: GlProject[];
  deliveries: GlDelivery[];
}

export class GlStore {
  readonly state: GlState;
  private readonly file: string;

  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, 'gitlab-state.json');
    this.state = fs.existsSync(this.file)
      ? (JSON.parse(fs.readFileSync(this.file, 'utf8')) as GlState)
      : { nextId: 1, users: [], tokens: [], projects: [], deliveries: [] };
  }

  id(): number {
    return this.state.nextId++;
  }

  save(): void {
    fs.writeFileSync(this.file, JSON.stringify(this.state));
  }

  user(username: string): GlUser {
    let u = this.state.users.find((x) => x.username === username);
    if (!u) {
      u = { id: this.id(), username };
      this.state.users.push(u);
    }
    return u;
  }

  /** A project by its numeric id or its `group/project` path, as GitLab's `:id` takes either. */
  project(idOrPath: string): GlProject | undefined {
    const key = decodeURIComponent(idOrPath);
    return this.state.projects.find(
      (p) => String(p.id) === key || p.path_with_namespace.toLowerCase() === key.toLowerCase(),
    );
  }
}

export const now = () => new Date().toISOString();
