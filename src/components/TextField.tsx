import { Field, Input, type InputProps } from '@chakra-ui/react';

interface TextFieldProps extends InputProps {
  label: string;
  error?: string | null;
  helperText?: string;
}

/** A labelled input with its hint and inline error, wired for screen readers by Field.Root. */
export function TextField({ label, error, helperText, ...inputProps }: TextFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label>{label}</Field.Label>
      <Input size="lg" {...inputProps} />
      {error ? <Field.ErrorText>{error}</Field.ErrorText> : helperText ? <Field.HelperText>{helperText}</Field.HelperText> : null}
    </Field.Root>
  );
}
