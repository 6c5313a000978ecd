import type { AccessLevel as Access } from '../mcpAccess.ts';

/** What a skill contacts: the address (a URL, or a template of one) and the name of the API key it sends there. */
export interface SkillCall {
  address: string;
  keyName?: string;
}

/**
 * Everything about a skill type, in one place, as a node kind's definition (../kinds/types.ts):
 * code elsewhere asks a capability (`scripted`, `calls`, `tool`…) rather than naming a type. It
 * holds no schema, so the canvas reads it without zod: the type's schema is in ../skills.ts,
 * gathered in `SKILL_SCHEMAS`; its runner in src/skills (`RUNNERS`), its inspector form in
 * src/editor/inspector (`SKILL_FORMS`), each in a map the compiler checks against the registry.
 */
export interface SkillTypeDefinition<Skill = unknown, Type extends string = string> {
  type: Type;
  /**
   * Served from its own script, never contacting anything: the only type a scenario runs as it is;
   * a scenario stands every other type in by a script of its own, or refuses it (runtime/apply-scenario.ts).
   */
  scripted?: true;
  /** A new skill of the type, as the inspector adds it. */
  defaults: () => Skill;
  /**
   * What the skill contacts, read from a skill that may not have been checked (a scenario's
   * override merged over the graph's): the hosts a run asks consent for, and where its API keys go.
   */
  calls: (skill: Readonly<Record<string, unknown>>) => SkillCall[];
  /** The access its settings imply beyond what it declares: an http DELETE writes, whatever `access` says. */
  impliedAccess?: (skill: Skill) => Access;
  /** The MCP server and tool it calls: its server is started or connected before a run. */
  tool?: (skill: Skill) => { server: string; tool: string };
}

/** A skill type's definition, its functions reading a skill of type `Skill`: `defineSkillType<GrpcSkill>()({ type: 'grpc', … })`. */
export const defineSkillType = <Skill>() => <const Type extends string>(definition: SkillTypeDefinition<Skill, Type>) => definition;
