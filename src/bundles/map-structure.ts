import { projectMap, type ProjectMap } from '../domain/project-map.js';
import { NameCollisions, pathProblem } from '../../workers/bundle/member-path.js';
import type { ArchiveLimits } from '../../workers/bundle/archive-limits.js';

/**
 * The whole structural check of a `project_map/v1` manifest, without its archive: the
 * schema, then member paths by the archive naming rules, then nodes and edges that refer
 * only to what the map declares. Answers the map or the first `map_invalid` detail.
 */
export function checkMapStructure(raw: unknown, limits: ArchiveLimits): { map: ProjectMap } | { detail: string } {
  const parsed = projectMap.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { detail: `schema:${issue.path.map(String).join('.') || issue.code}` };
  }
  const map = parsed.data;
  if ((map.archive_hash === undefined) !== (map.archive_size === undefined)) return { detail: 'archive_fields' };
  const names = new NameCollisions();
  for (const m of map.members) {
    const problem = pathProblem(m.path, limits) ?? names.add(m.path, false);
    if (problem !== null) return { detail: `member_path:${problem}` };
  }
  const paths = new Set(map.members.map((m) => m.path));
  const ids = new Set<string>();
  for (const n of map.nodes) {
    if (ids.has(n.id)) return { detail: 'duplicate_node' };
    ids.add(n.id);
    if (n.path !== undefined && !paths.has(n.path)) return { detail: 'node_path_not_a_member' };
  }
  for (const e of map.edges) if (!ids.has(e.source) || !ids.has(e.target)) return { detail: 'edge_unknown_node' };
  return { map };
}
