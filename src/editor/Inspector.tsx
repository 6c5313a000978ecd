export function Inspector() {
  return <div className="placeholder">Inspector</div>;
}
