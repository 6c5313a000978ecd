export function Palette() {
  return <div className="placeholder">Palette</div>;
}
