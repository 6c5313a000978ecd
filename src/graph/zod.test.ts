import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from './zod.ts';

describe('zod as the schemas use it', () => {
  it('answers in English and runs without eval (the page allows none)', () => {
    const result = z.strictObject({ tries: z.int() }).safeParse({ tries: 'x' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe('Invalid input: expected number, received string');
    expect(z.config().jitless).toBe(true);
  });

  it('is configured in one module: only graph/zod.ts imports zod’s code, every schema takes `z` from it', () => {
    const root = join(import.meta.dirname, '..');
    const sources = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      // LangGraph agents served by the dev server in journeys, written with their own zod (zodMini.test.ts).
      .filter((file) => !file.startsWith(join('runtime', 'fixtures', 'langgraph')));
    const importingZod = sources.filter((file) => /^import (?!type )[^;]*from 'zod/m.test(readFileSync(join(root, file), 'utf8')));
    expect(importingZod).toEqual([join('graph', 'zod.ts')]);
  });
});
