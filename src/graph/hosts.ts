/**
 * The hosts a run of a graph may contact, read from its http and llm skills (and the scenarios'
 * overrides of them), so that a person can see and allow them before anything is sent.
 */
import { own } from './common.ts';
import type { GraphFile } from './schema.ts';
import { callsOfSkill, type SkillCall } from './skillTypes/index.ts';

export interface ContactedHost {
  /** `https://host:port`, or null when the address is built during the run (a placeholder in its host). */
  origin: string | null;
  /** The address as the file writes it. */
  address: string;
  /** The skills that call it. */
  skills: string[];
  /** Key names sent there (llm skills). */
  keyNames: string[];
}

/** `https://host:port` of a URL, or null when it is not one. */
export const originOf = (url: string): string | null => {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
};

/**
 * Whether a URL's host (as `new URL` gives it: lower case, a name in punycode) is a plain one: a
 * name of letters, digits, `.`, `-` and `_`, or an IP address. A URL takes more in a host (`,`,
 * `'`, `` ` ``, `!`, `$`…), which a list of origins (`LOOPSCOPE_KEYS`, split at commas) would read
 * as two, and a quoted value could not always hold.
 */
export const hasPlainHost = (url: URL): boolean => /^(?:[a-z0-9_.-]+|\[[0-9a-f:.]+\])$/.test(url.hostname);

/** The origin a URL template always leads to, whatever its placeholders are filled with; null when they can change it. */
export const fixedOrigin = (template: string): string | null => {
  const fill = (value: string) => template.replace(/\{\{[^}]*\}\}/g, value);
  const origin = originOf(fill('a'));
  return origin !== null && origin === originOf(fill('b.c')) ? origin : null;
};

type Calls = SkillCall & { skill: string };

const callsOf = (name: string, skill: Record<string, unknown>): Calls[] => callsOfSkill(skill).map((call) => ({ ...call, skill: name }));

export const contactedHosts = (graph: GraphFile): ContactedHost[] => {
  const calls: Calls[] = Object.entries(graph.skills).flatMap(([name, skill]) => callsOf(name, skill));
  for (const scenario of graph.scenarios)
    for (const [name, override] of Object.entries(scenario.skills ?? {})) calls.push(...callsOf(name, { ...own(graph.skills, name), ...override }));
  const hosts = new Map<string, ContactedHost>();
  for (const call of calls) {
    const origin = fixedOrigin(call.address);
    const id = origin ?? call.address;
    const host = hosts.get(id) ?? { origin, address: origin ?? call.address, skills: [], keyNames: [] };
    if (!host.skills.includes(call.skill)) host.skills.push(call.skill);
    if (call.keyName && !host.keyNames.includes(call.keyName)) host.keyNames.push(call.keyName);
    hosts.set(id, host);
  }
  return [...hosts.values()];
};
