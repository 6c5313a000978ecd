import { useReactFlow } from '@xyflow/react';
import { KIND_LIST, type NodeKind } from '../graph/index.ts';
import { boxInside, freePosition } from '../graph/placement.ts';
import { FOREIGN_EDIT_NOTE, useApp } from '../store/index.ts';
import { addNodeAt, centredOn, shownFlow } from './canvasEdits.ts';
import { KIND_DRAG_TYPE } from './dropTarget.ts';
import { nodeRect } from './geometry.ts';
import { KindIcon } from '../ui/icons.tsx';

/**
 * Kinds to drag onto the canvas; Enter, Space or a click adds one at the centre of the view. Over a
 * server's LangGraph graph, whose stand-in takes no edits, the kinds are off and a note says why.
 */
export function Palette() {
  const { screenToFlowPosition, setCenter, getZoom } = useReactFlow();
  const foreign = useApp((state) => state.foreign !== null);
  const addAtCentre = (kind: NodeKind) => {
    const shown = shownFlow(screenToFlowPosition);
    const centre = shown ? { x: shown.x + shown.width / 2, y: shown.y + shown.height / 2 } : { x: 0, y: 0 };
    // Centred on the point rather than hanging from it, and where nothing is in the view: clear of every node by its real size.
    const graph = useApp.getState().graph;
    const { x, y, width, height } = centredOn(graph, kind, centre, null);
    const placed = freePosition(graph, { x, y }, { width, height }, (node) => nodeRect(node, graph.skills), shown ?? undefined);
    addNodeAt(kind, placed);
    // A view with no free room left: the view follows the node.
    if (shown && !boxInside({ ...placed, width, height }, shown))
      void setCenter(placed.x + width / 2, placed.y + height / 2, { zoom: getZoom() });
  };
  return (
    <div className="palette">
      <h2 className="panel-title">Palette</h2>
      {foreign && <p className="field-help palette-note" id="palette-note">{FOREIGN_EDIT_NOTE}.</p>}
      <ul className="palette-list">
        {KIND_LIST.map((definition) => (
          <li key={definition.kind}>
            <button
              type="button"
              className="palette-item"
              draggable={!foreign}
              disabled={foreign}
              aria-describedby={foreign ? 'palette-note' : undefined}
              style={{ '--kind-color': definition.color } as React.CSSProperties}
              title={`${definition.seedName}: ${definition.description} Drag onto the canvas, or press Enter to add.`}
              onDragStart={(event) => {
                event.dataTransfer.setData(KIND_DRAG_TYPE, definition.kind);
                event.dataTransfer.effectAllowed = 'move';
              }}
              onClick={() => addAtCentre(definition.kind)}
            >
              <KindIcon name={definition.icon} className="palette-icon" />
              <span>{definition.title}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
