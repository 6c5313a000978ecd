/**
 * What `loopscope run` (and `serve`) may do is what the person said on the command line, never
 * what the graph file says: `--grant MODE` (a file's `permissions.mode` only asks; read-only when
 * not given), and the hosts `--host ORIGIN` names or a `--key NAME@ORIGIN` binds a key to. A graph
 * that asks for more is refused before anything starts; during the run, a request to any other
 * origin (an address a skill builds from the state) is refused before it is sent (`fetchOnlyTo`).
 */
import { contactedHosts } from '../graph/hosts.ts';
import { isScripted } from '../graph/skillTypes/index.ts';
import type { GraphFile, PermissionMode } from '../graph/index.ts';
import { KEYS_VARIABLE } from '../skills/environmentKeys.ts';
import { DEFAULT_GRANT, GRANT_VARIABLE, grantCovers, HOSTS_VARIABLE } from '../skills/grant.ts';
import type { DotenvLine } from './projectText.ts';
import { fetchOnlyTo } from '../skills/net.ts';

/** What the person allowed on the command line. */
export interface Allowed {
  granted: PermissionMode;
  /** Origins requests may go to: each `--host`, and each origin a `--key NAME@ORIGIN` names. */
  hosts: ReadonlySet<string>;
}

/** The graph's skills that reach something real (not mocks). */
export const realSkills = (graph: GraphFile) => Object.entries(graph.skills).flatMap(([name, skill]) => (isScripted(skill) ? [] : [name]));

/**
 * Why this graph may not run with what the person allowed, one line per reason, or null when it may.
 * Only its own skills count: a scenario's overrides are mocks, and a scenario run reaches nothing.
 */
export const ungranted = (file: string, graph: GraphFile, allowed: Allowed, done: 'run' | 'served' = 'run'): string | null => {
  const problems: string[] = [];
  const asked = graph.permissions.mode;
  const real = realSkills(graph);
  if (real.length > 0 && !grantCovers(allowed.granted, asked))
    problems.push(`it asks for ${asked} permissions ("permissions.mode") for its real skills (${real.join(', ')}), and this run is granted ${allowed.granted}: the file only asks; grant it with --grant ${asked}`);
  const hosts = contactedHosts({ ...graph, scenarios: [] });
  for (const host of hosts) {
    if (host.origin && !allowed.hosts.has(host.origin))
      problems.push(`it contacts ${host.origin} (${host.skills.join(', ')}), which was not allowed: allow it with --host ${host.origin}${host.keyNames.length ? ` (or --key ${host.keyNames[0]}@${host.origin})` : ''}`);
    // An address built during the run can only go to hosts allowed before it: with none, it can go nowhere.
    if (!host.origin && allowed.hosts.size === 0)
      problems.push(`it builds the address ${host.address} during the run (${host.skills.join(', ')}), and no host was allowed: allow the origins it may reach with --host ORIGIN`);
  }
  return problems.length ? `${file} was not ${done}, nothing was started or sent:\n${problems.map((problem) => `  ${problem}`).join('\n')}` : null;
};

/** The run's fetch: requests go only to the origins the person allowed, any other is refused before it is sent. */
export const allowedFetch = (allowed: Allowed, fetchImpl?: typeof fetch): typeof fetch =>
  fetchOnlyTo(allowed.hosts, fetchImpl, (origin) => `loopscope run --host ${origin} allows it`);

/**
 * An exported project's `.env.example` lines for what the graph asks: the grant and the hosts,
 * written commented out as `LOOPSCOPE_KEYS` is, so that until the person uncomments them its real
 * calls only read and reach no host (as `loopscope run` without `--grant` and `--host`).
 */
export const grantLines = (graph: GraphFile): DotenvLine[] => {
  const asked = graph.permissions.mode;
  const origins = contactedHosts({ ...graph, scenarios: [] }).flatMap((host) => (host.origin ? [host.origin] : []));
  return [
    ...(realSkills(graph).length > 0 && asked !== DEFAULT_GRANT ? [
      { comment: `The graph asks for ${asked} permissions for its real skills; ${GRANT_VARIABLE} grants them (read-only when absent): uncomment to grant what it asks.` },
      { name: GRANT_VARIABLE, value: asked, commented: true },
    ] : []),
    ...(origins.length > 0 ? [
      { comment: `Requests go only to the origins ${HOSTS_VARIABLE} names (separated by commas) and where ${KEYS_VARIABLE} lets a key go: uncomment to allow what the graph contacts.` },
      { name: HOSTS_VARIABLE, value: origins.join(','), commented: true },
    ] : []),
  ];
};
