export function EditorToolbar() {
  return <div className="placeholder">EditorToolbar</div>;
}
