import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { lazySchema } from './lazySchema.ts';

describe('lazySchema', () => {
  it('builds its schema at its first use, once', () => {
    const build = vi.fn((zod: typeof z) => zod.strictObject({ name: zod.string() }));
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();
    expect(schema.safeParse({ name: 'a' }).success).toBe(true);
    expect(schema.safeParse({ name: 1 }).success).toBe(false);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('stands in for its schema inside other schemas, with defaults, shapes and unions', () => {
    const Inner = lazySchema((zod) => zod.strictObject({ tries: zod._default(zod.int(), 3) }));
    const Outer = lazySchema((zod) => zod.strictObject({ inner: zod._default(Inner, { tries: 3 }), list: zod.array(Inner) }));
    expect(Outer.parse({ list: [{}] })).toEqual({ inner: { tries: 3 }, list: [{ tries: 3 }] });
    expect(Object.keys(Outer.shape)).toEqual(['inner', 'list']);
    expect(Outer instanceof z.ZodMiniObject).toBe(true);
    const Either = lazySchema((zod) => zod.discriminatedUnion('type', [zod.strictObject({ type: zod.literal('a') }), zod.strictObject({ type: zod.literal('b'), n: Inner })]));
    expect(Either.safeParse({ type: 'b', n: { tries: 1 } }).success).toBe(true);
    expect(Either.safeParse({ type: 'c' }).success).toBe(false);
  });

  it('builds schemas around the schemas, not the stand-ins, so that a parse does not pass through them', () => {
    const Inner = lazySchema((zod) => zod.strictObject({ tries: zod.int() }));
    const Outer = lazySchema((zod) => zod.strictObject({ inner: Inner, list: zod.array(Inner), either: zod.union([Inner, zod.string()]), kept: zod._default(zod.string(), 'x') }));
    const inner = Outer.shape.inner;
    expect(inner).not.toBe(Inner);
    expect(inner).toBe(Outer.shape.list._zod.def.element);
    expect(Outer.shape.either._zod.def.options[0]).toBe(inner);
    expect(inner.safeParse({ tries: 1 }).success).toBe(true);
  });

  it('refers to itself in a recursive schema', () => {
    type Tree = { children: Tree[] };
    const Tree: z.ZodMiniType<Tree> = lazySchema((zod) => zod.lazy(() => zod.strictObject({ children: zod.array(Tree) })));
    expect(Tree.safeParse({ children: [{ children: [] }] }).success).toBe(true);
    expect(Tree.safeParse({ children: [{ kids: [] }] }).success).toBe(false);
  });

  it('says what to do when a schema is used before zod was given, and builds nothing', async () => {
    vi.resetModules();
    const fresh = await import('./lazySchema.ts');
    const build = vi.fn((zod: typeof z) => zod.string());
    const schema = fresh.lazySchema(build);
    expect(fresh.schemasReady()).toBe(false);
    expect(() => schema.parse('a')).toThrow(/before zod was loaded: import src\/graph\/zodProvided.ts in this entry, or await loadSchemas\(\)/);
    expect(build).not.toHaveBeenCalled();
  });

  it('is how every schema of the app gets zod: only zodProvided.ts imports its code', () => {
    const root = join(import.meta.dirname, '..');
    const sources = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
    const importingZod = sources.filter((file) => /^import (?!type )[^;]*from 'zod/m.test(readFileSync(join(root, file), 'utf8')));
    expect(importingZod).toEqual([join('graph', 'zodProvided.ts')]);
  });
});
