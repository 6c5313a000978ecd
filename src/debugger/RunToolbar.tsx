export function RunToolbar() {
  return <div className="placeholder">RunToolbar</div>;
}
