/** What an empty canvas says. Loaded when a graph is empty: the palette it speaks of fills after the first screen too. */
export function CanvasHint() {
  return (
    <div className="canvas-hint" role="note">
      <p><strong>An empty graph.</strong> Drag a kind from the palette onto the canvas, or focus it and press Enter.</p>
      <p>The first node is the entry. To connect, drag an outcome row on a node’s right and drop it anywhere on the next node, or select a node and press C.</p>
    </div>
  );
}
