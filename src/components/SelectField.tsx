import { Field, NativeSelect } from '@chakra-ui/react';

interface SelectFieldProps<Value extends string> {
  label: string;
  name: string;
  value: Value;
  options: readonly { value: Value; label: string }[];
  onChange: (value: Value) => void;
  size?: 'sm' | 'md' | 'lg';
}

/** A labelled native select (the platform's own picker on phones, keyboard-friendly everywhere). */
export function SelectField<Value extends string>({ label, name, value, options, onChange, size = 'lg' }: SelectFieldProps<Value>) {
  return (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root size={size}>
        <NativeSelect.Field name={name} value={value} onChange={(e) => onChange(e.target.value as Value)}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}
