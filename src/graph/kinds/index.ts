import { act } from './act.ts';
import { approve } from './approve.ts';
import { collect } from './collect.ts';
import { reason } from './reason.ts';
import { recover } from './recover.ts';
import { respond } from './respond.ts';
import { stop } from './stop.ts';
import type { KindDefinition, NodeKind } from './types.ts';
import { verify } from './verify.ts';

export * from './types.ts';
export * from './loop.ts';

/** The one place node kinds are registered, in palette order. */
export const KINDS = { reason, collect, act, verify, recover, approve, respond, stop } as const;

export const kindDefinition = (kind: NodeKind): KindDefinition => KINDS[kind] as unknown as KindDefinition;
export const KIND_LIST: readonly KindDefinition[] = Object.values(KINDS) as unknown as KindDefinition[];
