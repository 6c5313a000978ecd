/**
 * One interface every skill type implements. A skill knows how to make one attempt; retries,
 * permissions and the budget are the runtime's business (src/runtime/retry.ts).
 */
import type { CallOutcome } from '../graph/index.ts';
import type { Access } from '../graph/skills.ts';
import type { AttemptContext, SkillResult } from '../graph/skillTypes/types.ts';
import type { ToolDescription } from './mcp.ts';

export type { SkillResult };

/** What an attempt is given: the run's services (keys, fetch, MCP servers), the same for every type's runner. */
export type SkillContext = AttemptContext;

export interface SkillRunner {
  readonly name: string;
  readonly access: Access;
  /** Its durations are reported, not waited (mock): the run's clock moves instead of the page's. */
  readonly simulated?: boolean;
  /**
   * For a skill whose access its service tells (an MCP tool's annotations): asked before the
   * permission check of each attempt. A result instead of an access is that attempt's answer
   * (the server cannot be reached, it has no such tool): the call is not made.
   */
  learnAccess?(context: SkillContext): Promise<Access | SkillResult>;
  /** What a decider is told of this skill as a tool; its name (and description) when not given. */
  describe?(context: SkillContext): Promise<ToolDescription>;
  call(args: Record<string, unknown>, context: SkillContext): Promise<SkillResult>;
}

/** Outcome of a finished call from its records: an empty result is not a success. */
export const outcomeOfRecords = (records: readonly unknown[]): CallOutcome => (records.length > 0 ? 'ok' : 'empty');
