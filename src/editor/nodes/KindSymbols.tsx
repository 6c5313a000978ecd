import { memo } from 'react';
import { kindDefinition, NODE_KINDS, type KindIconName } from '../../graph/index.ts';
import { KindIcon } from '../../ui/icons.tsx';

const ICONS = [...new Set(NODE_KINDS.map((kind) => kindDefinition(kind).icon))];

const symbolId = (name: KindIconName) => `kind-symbol-${name}`;

/**
 * Each kind's icon drawn once for the whole canvas; nodes refer to it. An icon's paths then live
 * once in the page instead of once a node (up to nine elements for the brain).
 */
export const KindSymbols = memo(function KindSymbols() {
  return (
    <svg width="0" height="0" style={{ position: 'absolute' }} aria-hidden="true" focusable="false">
      {ICONS.map((name) => (
        <symbol key={name} id={symbolId(name)} viewBox="0 0 24 24">
          <KindIcon name={name} size={24} />
        </symbol>
      ))}
    </svg>
  );
});

/** A kind's icon on a node: a reference to its symbol, in the kind's colour (`currentColor`). */
export function KindSymbol({ name, className, size }: { name: KindIconName; className?: string; size: number }) {
  return (
    <svg className={className} width={size} height={size} aria-hidden="true" focusable="false">
      <use href={`#${symbolId(name)}`} />
    </svg>
  );
}
