export function Timeline() {
  return <div className="placeholder">Timeline</div>;
}
