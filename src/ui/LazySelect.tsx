import { useState, type SelectHTMLAttributes } from 'react';
import { visibleText } from '../graph/visible.ts';

export interface Choice {
  value: string;
  /** A name from a file (a node's label, a skill's name) is shown with its escapes: an option's text holds no element (ui/Shown.tsx). */
  label: string;
}

/** Up to this many options a select holds them all the time. */
export const EAGER_OPTIONS = 50;

type LazySelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'children'> & {
  value: string;
  choices: readonly Choice[];
  /** Options that stay first and always present, as "(none)". */
  fixed?: readonly Choice[];
};

/**
 * A select whose long list of options is in the page only while someone uses it (from the press
 * or focus that opens it until it loses focus). A big graph's node and edge selects otherwise hold
 * thousands of options, built again on every edit. Until then it holds the chosen option, so it
 * shows its value and is named the same.
 */
export function LazySelect({ value, choices, fixed = [], onFocus, onBlur, onPointerDown, ...props }: LazySelectProps) {
  const [inUse, setInUse] = useState(false);
  const shown = inUse || choices.length <= EAGER_OPTIONS ? choices : choices.filter((choice) => choice.value === value);
  return (
    <select
      {...props}
      value={value}
      // Pressing opens the list right after this event, and React renders the options before it.
      onPointerDown={(event) => {
        setInUse(true);
        onPointerDown?.(event);
      }}
      onFocus={(event) => {
        setInUse(true);
        onFocus?.(event);
      }}
      onBlur={(event) => {
        setInUse(false);
        onBlur?.(event);
      }}
    >
      {fixed.map((choice) => <option key={`fixed:${choice.value}`} value={choice.value}>{choice.label}</option>)}
      {shown.map((choice) => <option key={choice.value} value={choice.value}>{visibleText(choice.label)}</option>)}
    </select>
  );
}
