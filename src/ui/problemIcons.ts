/**
 * The problem marks' icons as CSS images. Problems are found after the first screen (the check
 * loads then: store/problems.ts), so their marks and these drawings load with them.
 */
// The drawings alone, not the components (lucideIconData.d.ts).
import { __iconData as circleAlertIcon } from 'lucide-react/icons/circle-exclamation-point';
import { __iconData as triangleAlertIcon } from 'lucide-react/icons/triangle-exclamation-point';
import { iconImage } from './canvasIcons.tsx';

/** The drawings of `ErrorIcon` and `WarningIcon` (lucide's alert icons, under their current names) in styles.css's --danger and --warn. */
const PROBLEM_ICONS = {
  error: { drawing: circleAlertIcon.node, color: '#f87171' },
  warning: { drawing: triangleAlertIcon.node, color: '#fbbf24' },
} as const;

/** A problem's icon as a CSS image, as `ErrorIcon` or `WarningIcon` draws it in the problem's colour. */
export const problemIconImage = (severity: keyof typeof PROBLEM_ICONS): string => iconImage(`problem ${severity}`, PROBLEM_ICONS[severity].drawing, PROBLEM_ICONS[severity].color);
