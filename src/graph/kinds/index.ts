import { act } from './act.ts';
import { approve } from './approve.ts';
import { collect } from './collect.ts';
import { reason } from './reason.ts';
import { recover } from './recover.ts';
import { respond } from './respond.ts';
import { stop } from './stop.ts';
import type { KindDefinition } from './types.ts';
import { verify } from './verify.ts';

export * from './types.ts';
export * from './loop.ts';

/** The one place node kinds are registered, in palette order; everything else about a kind derives from here. */
export const KINDS = { reason, collect, act, verify, recover, approve, respond, stop } as const;

/** A kind's key must be the kind it defines: `{ act: verify }` does not compile. */
const registered: { [K in keyof typeof KINDS]: { kind: K } } = KINDS;

export type NodeKind = keyof typeof KINDS;
export const NODE_KINDS = Object.keys(registered) as [NodeKind, ...NodeKind[]];

/** The type of a kind's config (of its config schema), as its definition's functions read it. */
export type ConfigOf<K extends NodeKind> = (typeof KINDS)[K] extends KindDefinition<infer Config, K> ? Config : never;
/** The state field groups a kind writes. */
export type WritesOf<K extends NodeKind> = (typeof KINDS)[K]['writes'][number];

/** Any registered kind's definition, its config loosely typed. */
export type AnyKindDefinition = KindDefinition<unknown, NodeKind>;

export const kindDefinition = (kind: NodeKind): AnyKindDefinition => KINDS[kind] as unknown as AnyKindDefinition;
export const KIND_LIST: readonly AnyKindDefinition[] = Object.values(KINDS) as unknown as AnyKindDefinition[];
