export function StepDetail() {
  return <div className="placeholder">StepDetail</div>;
}
