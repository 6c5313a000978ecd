/**
 * What a run may do is the person's to grant, never the graph file's: a file's `permissions.mode`
 * only asks. The command line takes the grant from `--grant MODE`, an exported project (and
 * `loopscope serve`'s server) from `LOOPSCOPE_GRANT` in its `.env`; absent, real calls may only
 * read. Mock skills simulate the file's mode as they always did: they reach nothing. The hosts a
 * run may contact are the person's too: `--host ORIGIN`, `LOOPSCOPE_HOSTS`, and the origins keys
 * are allowed to go to.
 */
import { accessAllowed } from '../graph/validate.ts';
import { PERMISSION_MODES, type PermissionMode } from '../graph/schema.ts';
import type { Access } from '../graph/skills.ts';
import { exactOrigin, type AllowedKeys } from './environmentKeys.ts';

/** The grant when the person gave none. */
export const DEFAULT_GRANT: PermissionMode = 'read-only';

/** The variable an exported project (and `loopscope serve`'s server) reads the person's grant from. */
export const GRANT_VARIABLE = 'LOOPSCOPE_GRANT';

/** Whether what the person granted covers what a graph asks for (read-only ⊂ workspace ⊂ full). */
export const grantCovers = (granted: PermissionMode, asked: PermissionMode): boolean => PERMISSION_MODES.indexOf(granted) >= PERMISSION_MODES.indexOf(asked);

/** The least mode that allows this access. */
export const modeFor = (access: Access): PermissionMode => PERMISSION_MODES.find((mode) => accessAllowed(mode, access)) ?? 'full';

/** How a person grants `mode`, on the command line and in a served project, in one place for every message. */
export const howToGrant = (mode: PermissionMode) => `loopscope run --grant ${mode}, or ${GRANT_VARIABLE}=${mode} in a served project's .env`;

/** A grant as the person wrote it (`--grant`, `LOOPSCOPE_GRANT`): one of the modes, else a refusal naming where. */
export const readGrant = (value: string | undefined, where: string): { granted: PermissionMode } | { refused: string } => {
  if (value === undefined || value === '') return { granted: DEFAULT_GRANT };
  return (PERMISSION_MODES as readonly string[]).includes(value)
    ? { granted: value as PermissionMode }
    : { refused: `${where} needs one of ${PERMISSION_MODES.join(', ')}, got "${value}"` };
};

/** The variable an exported project (and `loopscope serve`'s server) reads the hosts its skills may contact from. */
export const HOSTS_VARIABLE = 'LOOPSCOPE_HOSTS';

/** Origins written as one value (`LOOPSCOPE_HOSTS`): separated by commas or spaces, each exactly an origin. */
export const readOrigins = (text: string | undefined, where: string): { origins: string[] } | { refused: string } => {
  const origins: string[] = [];
  for (const entry of (text ?? '').split(/[\s,]+/).filter(Boolean)) {
    const origin = exactOrigin(entry);
    if (!origin) return { refused: `${where} needs origins such as https://api.example.com, got "${entry}"` };
    origins.push(origin);
  }
  return { origins };
};

/** The origins the person allowed: the hosts they named, and the origins keys are bound to (a key for any origin names none). */
export const allowedHosts = (hosts: Iterable<string>, keys: AllowedKeys): Set<string> =>
  new Set([...hosts, ...[...keys.values()].flatMap((origins) => (origins === 'any origin' ? [] : [...origins]))]);
