import { describe, expect, it } from 'vitest';
import { getAt, removeSkill, renameSkill, setAt, skillUsers, checkSkillName, nextSkillName, newSkill } from './inspectorOps.ts';
import { Skill } from './skills.ts';
import { validateGraph } from './validate.ts';
import { findTemplate } from './templates/index.ts';

const graph = () => findTemplate('securityclaw')!.graph();

describe('dotted config keys', () => {
  it('reads and writes nested values without touching the original', () => {
    const config = { retry: { maxAttempts: 3, retryOn: ['timeout'] }, maxIter: 5 };
    const next = setAt(config, 'retry.maxAttempts', 4);
    expect(getAt(next, 'retry.maxAttempts')).toBe(4);
    expect(next.retry).toEqual({ maxAttempts: 4, retryOn: ['timeout'] });
    expect(config.retry.maxAttempts).toBe(3);
  });

  it('removes a key set to undefined and creates missing parents', () => {
    expect(setAt({ retry: { backoffMs: 10, maxAttempts: 2 } }, 'retry.backoffMs', undefined)).toEqual({ retry: { maxAttempts: 2 } });
    expect(setAt({}, 'retry.timeoutMs', 5)).toEqual({ retry: { timeoutMs: 5 } });
  });

  it('refuses prototype keys', () => {
    expect(() => setAt({}, '__proto__.polluted', 1)).toThrow(/not allowed/);
  });
});

describe('skills', () => {
  it('renames a skill in the nodes and scenarios that name it', () => {
    const before = graph();
    const used = Object.keys(before.skills)[0];
    const users = skillUsers(before, used);
    expect(users.length).toBeGreaterThan(0);
    const after = renameSkill(before, used, 'renamed_skill');
    expect(Object.keys(after.skills)[0]).toBe('renamed_skill');
    expect(skillUsers(after, used)).toEqual([]);
    expect(skillUsers(after, 'renamed_skill')).toEqual(users);
    expect(validateGraph(after).filter((problem) => problem.code === 'unknown_skill')).toEqual([]);
  });

  it('leaves the nodes naming a removed skill to validation', () => {
    const before = graph();
    const used = Object.keys(before.skills)[0];
    const after = removeSkill(before, used);
    expect(Object.hasOwn(after.skills, used)).toBe(false);
    expect(validateGraph(after).some((problem) => problem.code === 'unknown_skill')).toBe(true);
  });

  it('checks names and offers free ones', () => {
    const current = graph();
    const taken = Object.keys(current.skills)[0];
    expect(checkSkillName(current, taken)).toBe(`"${taken}" is taken`);
    expect(checkSkillName(current, taken, taken)).toBeNull();
    expect(checkSkillName(current, '9lives')).toMatch(/starting with a letter/);
    expect(current.skills[nextSkillName(current)]).toBeUndefined();
  });

  it('makes new skills of every type that pass the skill schema', () => {
    for (const type of ['mock', 'http', 'llm'] as const) expect(Skill.safeParse(newSkill(type)).success).toBe(true);
  });
});
