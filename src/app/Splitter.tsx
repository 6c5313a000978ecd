import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { onDemand } from '../ui/onDemand.ts';
import { flexOf, initialLayout, withFolded, type GroupLayout, type PanelSpec, type PanelState } from './splitLayout.ts';

/** Where the person's panel sizes are remembered between visits. */
const layoutStorage = (() => {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
})();
const storageKey = (id: string) => `loopscope.layout.${id}`;

const remembered = (id: string): unknown => {
  try {
    return JSON.parse(layoutStorage?.getItem(storageKey(id)) ?? 'null');
  } catch {
    return null;
  }
};

export interface GroupContext {
  orientation: 'horizontal' | 'vertical';
  specs: Record<string, PanelSpec>;
  layout: GroupLayout;
  set: (id: string, state: PanelState) => void;
  element: () => HTMLElement | null;
}

const Group = createContext<GroupContext | null>(null);

export const useGroup = () => {
  const group = useContext(Group);
  if (!group) throw new Error('a split panel or separator outside a SplitGroup');
  return group;
};

interface SplitGroupProps {
  /** Names the remembered layout. */
  id: string;
  orientation: 'horizontal' | 'vertical';
  /** Every panel of the group by id; exactly one without a size fills the rest. */
  panels: Record<string, PanelSpec>;
  className?: string;
  /** Panels that yield their room for now, drawn collapsed without forgetting their size. */
  folded?: readonly string[];
  /** A folded panel the person opens or resizes: it stops yielding. */
  onUnfold?: (id: string) => void;
  children: ReactNode;
}

const NONE: readonly string[] = [];

/**
 * A row or column of panels with separators between them. Laid out by CSS alone (flex, min and
 * max sizes): the page is not measured until the person drags a separator.
 */
export function SplitGroup({ id, orientation, panels, className, folded = NONE, onUnfold, children }: SplitGroupProps) {
  const [held, setHeld] = useState(() => ({ id, layout: initialLayout(panels, remembered(id)) }));
  // Another id is another layout (the Debug layout's groups): its own sizes, as remembered, with no remount of what the panels hold.
  const current = held.id === id ? held : { id, layout: initialLayout(panels, remembered(id)) };
  if (current !== held) setHeld(current);
  const layout = useMemo(() => withFolded(current.layout, folded), [current.layout, folded]);
  const ref = useRef<HTMLDivElement>(null);
  const set = useCallback(
    (panel: string, state: PanelState) => {
      if (folded.includes(panel)) onUnfold?.(panel);
      setHeld((previous) => {
        const next = { ...previous.layout, [panel]: state };
        try {
          layoutStorage?.setItem(storageKey(id), JSON.stringify(next));
        } catch {
          // A full or refused storage only forgets the sizes.
        }
        return { id, layout: next };
      });
    },
    [id, folded, onUnfold],
  );
  const context = useMemo(() => ({ orientation, specs: panels, layout, set, element: () => ref.current }), [orientation, panels, layout, set]);
  return (
    <Group.Provider value={context}>
      <div ref={ref} id={id} className={['split-group', `split-${orientation}`, className].filter(Boolean).join(' ')}>
        {children}
      </div>
    </Group.Provider>
  );
}

/** A panel's state in its group, and a way to collapse or open it (a rail's buttons). */
export const useSplitPanel = (id: string) => {
  const { layout, set } = useGroup();
  const state = layout[id];
  return { collapsed: state?.collapsed ?? false, setCollapsed: (collapsed: boolean) => state && set(id, { ...state, collapsed }) };
};

export function SplitPanel({ id, children }: { id: string; children: ReactNode }) {
  const { orientation, specs, layout } = useGroup();
  const spec = specs[id];
  const state = layout[id];
  const { flex, minSize, maxSize } = flexOf(spec, state);
  const horizontal = orientation === 'horizontal';
  // Collapsed to nothing, its content leaves the page (and the keyboard's way) until it is opened again.
  const hidden = Boolean(state?.collapsed && !spec.collapsedSize);
  return (
    <div
      id={id}
      data-panel=""
      hidden={hidden}
      className="split-panel"
      style={{ flex, [horizontal ? 'minWidth' : 'minHeight']: minSize, [horizontal ? 'maxWidth' : 'maxHeight']: maxSize }}
    >
      <div className="split-panel-content">{children}</div>
    </div>
  );
}

const separator = onDemand(() => import('./Separator.tsx'));

/**
 * The separator that resizes one panel of its group (the one its label names). What it does when
 * dragged or keyed (Separator.tsx) loads after the first screen: until then it is drawn, inert.
 */
export function Splitter({ controls, label }: { controls: string; label: string }) {
  // Given its group rather than reading it: Separator.tsx imports nothing back from here.
  const group = useGroup();
  const loaded = separator.useModule(true);
  return loaded ? <loaded.Separator group={group} controls={controls} label={label} /> : <div className="splitter" />;
}
