/**
 * The kinds' schemas, gathered from the module beside each definition (`act.ts` → `act.schema.ts`):
 * each kind's config and the state field groups it writes, with their shapes. Apart from the
 * definitions (./index.ts) because the first screen draws nodes from those and must not load zod
 * or build a schema; what parses, checks or makes a config imports this module, after it.
 */
import { actSchemas } from './act.schema.ts';
import { approveSchemas } from './approve.schema.ts';
import { collectSchemas } from './collect.schema.ts';
import { reasonSchemas } from './reason.schema.ts';
import { recoverSchemas } from './recover.schema.ts';
import { respondSchemas } from './respond.schema.ts';
import { stopSchemas } from './stop.schema.ts';
import { verifySchemas } from './verify.schema.ts';
import type { z } from '../zod.ts';
import type { ConfigOf, NodeKind, WritesOf } from './index.ts';

/** A kind's schemas: `config` parses to the config its definition's functions read; `state` has a shape for each field group it `writes`. */
export interface KindSchemas<Config = unknown, Writes extends string = string> {
  config: z.ZodMiniType<Config>;
  /** A person's edit of these fields (a fork) is checked against them before anything runs. */
  state: [Writes] extends [never] ? Readonly<Record<string, never>> : { readonly [Field in Writes]: z.ZodMiniType };
}

/** The schemas a registered kind must have: a config schema parsing to its definition's config, a state schema for each field it writes and no other. */
export type KindSchemasOf<K extends NodeKind> = KindSchemas<ConfigOf<K>, WritesOf<K>>;

/** Every registered kind's schemas: a kind with none, or whose config schema is not its definition's config, does not compile. */
export const KIND_SCHEMAS = {
  reason: reasonSchemas, collect: collectSchemas, act: actSchemas, verify: verifySchemas, recover: recoverSchemas, approve: approveSchemas, respond: respondSchemas, stop: stopSchemas,
} satisfies { [K in NodeKind]: KindSchemasOf<K> };

/** Any registered kind's schemas, its config loosely typed. */
export const kindSchemas = (kind: NodeKind): KindSchemas => KIND_SCHEMAS[kind] as KindSchemas;
