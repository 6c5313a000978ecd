export function Canvas() {
  return <div className="placeholder">Canvas</div>;
}
