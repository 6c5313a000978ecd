import { z } from './zod.ts';

export const OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'contains', 'exists', 'empty'] as const;
export type Op = (typeof OPS)[number];

export type When =
  | 'always'
  | 'otherwise'
  | { outcome: string }
  | { path: string; op: Op; value?: unknown }
  | { all: When[] }
  | { any: When[] }
  | { not: When };

const PATH = /^[A-Za-z_$][\w$]*(\.[\w$]+)*$/;

export const When: z.ZodMiniType<When> = z.lazy(() =>
  z.union([
    z.literal('always'),
    z.literal('otherwise'),
    z.strictObject({ outcome: z.string().check(z.minLength(1)) }),
    z.strictObject({
      path: z.string().check(z.regex(PATH, 'a path is field names joined by dots, like evaluation.plan_exhausted')),
      op: z.enum(OPS),
      value: z.optional(z.unknown()),
    }),
    z.strictObject({ all: z.array(When).check(z.minLength(1)) }),
    z.strictObject({ any: z.array(When).check(z.minLength(1)) }),
    z.strictObject({ not: When }),
  ]),
);

/** How deep `all` / `any` / `not` nest in a condition (a plain condition is 1), counted without recursion. */
export const whenDepth = (when: When | undefined): number => {
  let deepest = 0;
  const stack: { when: When | undefined; depth: number }[] = [{ when, depth: 1 }];
  while (stack.length > 0) {
    const { when: current, depth } = stack.pop() as { when: When | undefined; depth: number };
    if (current === undefined || typeof current !== 'object') {
      deepest = Math.max(deepest, current === undefined ? 0 : depth);
      continue;
    }
    deepest = Math.max(deepest, depth);
    const inner = 'all' in current ? current.all : 'any' in current ? current.any : 'not' in current ? [current.not] : [];
    for (const child of inner) stack.push({ when: child, depth: depth + 1 });
  }
  return deepest;
};
