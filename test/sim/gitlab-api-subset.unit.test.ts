import { describe, expect, it } from 'vitest';
import subset from '../../sim/gitlab/api-subset.json' with { type: 'json' };
import { routePattern } from '../../sim/gitlab/gitlab-sim-calls.js';
import { routes } from '../../sim/gitlab/gitlab-sim-routes.js';

// The GitLab simulator's routes held against GitLab's own description of them. GitLab publishes no
// complete OpenAPI file (gitlabhq's doc/api/openapi/openapi_v2.yaml leaves out issues, notes,
// discussions, award emoji and pipelines), and gitlabhq is too large to fetch whole here, so
// api-subset.json is kept by hand from the doc/api/*.md pages, each route naming the page and
// commit it was read at. demo-gitlab.test.ts checks the other half: every call booty's adapter
// makes lands on one of these routes, and each reply carries the fields booty reads.

const documented = new Set(subset.routes.map((r) => `${r.method} ${r.path}`));
/** Served in gitlab-simulator.ts itself, outside the project routes. */
const OUTSIDE_PROJECTS = ['GET /user', 'GET /personal_access_tokens/self'];
const served = [...routes.map(([method, route]) => `${method} /projects/:id${route}`), ...OUTSIDE_PROJECTS];

describe("the GitLab simulator's routes against GitLab's docs", () => {
  it('serves no route the docs do not describe, by method and path', () => {
    expect(served.filter((r) => !documented.has(r))).toEqual([]);
  });

  it('writes each path as the docs do: literal segments and :named ones, under /projects/:id or the root', () => {
    for (const { path } of subset.routes) {
      expect(path).toMatch(/^(\/[a-z_]+|\/:[a-z_]+)+$/);
      expect(path.startsWith('/projects/:id') || !path.slice(1).includes(':')).toBe(true);
    }
  });

  it('matches a request path only on its own route', () => {
    const notes = routePattern('/projects/:id/merge_requests/:merge_request_iid/notes');
    expect(notes.exec('/projects/g%2Fp/merge_requests/3/notes')?.slice(1)).toEqual(['g%2Fp', '3']);
    expect(notes.test('/projects/g%2Fp/merge_requests/3/notes/9')).toBe(false);
    expect(notes.test('/projects/g/p/merge_requests/3/notes')).toBe(false);
  });

  it('names its source for every route, and the attributes each write requires', () => {
    for (const r of subset.routes) {
      expect(r.doc.file).toMatch(/^doc\/api\/[a-z_]+\.md$/);
      if (r.doc.commit !== null) expect(r.doc.commit).toMatch(/^[0-9a-f]{40}$/);
    }
    const required = (m: string, p: string) =>
      subset.routes.find((r) => r.method === m && r.path === p)?.required;
    expect(required('POST', '/projects/:id/merge_requests')).toEqual([
      'source_branch',
      'target_branch',
      'title',
    ]);
    expect(
      required('PUT', '/projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id'),
    ).toEqual(['resolved']);
  });
});
