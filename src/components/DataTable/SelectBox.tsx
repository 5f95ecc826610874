import { chakra } from '@chakra-ui/react';
import type { MouseEvent } from 'react';

export interface SelectBoxProps {
  checked: boolean;
  /** The box's accessible name ("Select a.csv", "Select all"). */
  label: string;
  /** Clicked (or toggled by keyboard): `shiftKey` tells whether Shift was held, for ranges. */
  onChange: (shiftKey: boolean) => void;
  /** Some but not all selected (a "select all" box). */
  indeterminate?: boolean;
}

/** A real checkbox: keyboard and screen readers know it, and its click tells about Shift. */
export function SelectBox({ checked, label, onChange, indeterminate }: SelectBoxProps) {
  return (
    <chakra.input
      type="checkbox"
      checked={checked}
      aria-label={label}
      ref={(el: HTMLInputElement | null) => {
        if (el) el.indeterminate = !!indeterminate;
      }}
      onChange={() => undefined}
      onClick={(e: MouseEvent<HTMLInputElement>) => {
        e.stopPropagation();
        onChange(e.shiftKey);
      }}
      boxSize="4"
      cursor="pointer"
      css={{ accentColor: 'var(--chakra-colors-brand-solid)' }}
    />
  );
}
