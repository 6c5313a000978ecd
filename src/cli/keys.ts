import { type GraphFile } from '../graph/index.ts';
import { originOf } from '../graph/hosts.ts';
import { callsOfSkill } from '../graph/skillTypes/index.ts';
import type { AllowedKeys } from '../skills/environmentKeys.ts';

/**
 * A served graph's key may go only where `--key` lets it: the server holds it to that origin too
 * (`LOOPSCOPE_KEYS`), and a file's baseUrl is fixed in the file, so a misdirected key is refused
 * before the server starts. Says which skill would send it elsewhere.
 */
export const keysToOtherOrigins = (graph: GraphFile, allowed: AllowedKeys): string | null => {
  for (const [id, skill] of Object.entries(graph.skills ?? {}))
    for (const { address, keyName } of callsOfSkill(skill)) {
      if (!keyName) continue;
      const origins = allowed.get(keyName);
      if (!origins || origins === 'any origin') continue;
      const origin = originOf(address) ?? address;
      if (!origins.has(origin)) return `skill ${id} sends ${keyName} to ${origin}, and --key allows ${[...origins].join(', ')} only`;
    }
  return null;
};
