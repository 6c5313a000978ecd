export function ProblemsPanel() {
  return <div className="placeholder">ProblemsPanel</div>;
}
