import type { ButtonHTMLAttributes } from 'react';
import type { LucideIcon } from 'lucide-react';

/**
 * A toolbar button: an icon and a label. Where the header is narrow the label hides and the icon
 * stays, still read out as the name: `compact` below 1600 px, `'wide'` below 2000 px, `'always'`
 * for the icons everyone knows.
 */
export function ToolButton({ icon: Icon, label, compact = false, className = '', ...props }: { icon: LucideIcon; label: string; compact?: boolean | 'wide' | 'always' } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button type="button" title={props.title ?? label} className={`tool-button${compact === 'always' ? ' icon-only' : compact === 'wide' ? ' compact-wide' : compact ? ' compact' : ''} ${className}`} {...props}>
      <Icon size={16} aria-hidden="true" focusable="false" />
      <span className="tool-label">{label}</span>
    </button>
  );
}
