import { Text, type TextProps } from '@chakra-ui/react';
import { useIntl } from 'react-intl';

/** Longest workflow name the server accepts (workflows.schemas.ts, Name). */
export const NAME_MAX_LENGTH = 200;

/**
 * "12 / 200" while a workflow name is typed, and a plain sentence once the limit is reached: a
 * paste longer than it is cut by the input's maxLength, and this says so instead of cutting silently.
 */
export function NameLimit({ length, id, ...props }: { length: number; id: string } & TextProps) {
  const intl = useIntl();
  const reached = length >= NAME_MAX_LENGTH;
  return (
    <Text id={id} textStyle="xs" color={reached ? 'fg.error' : 'fg.muted'} aria-live="polite" data-testid="workflow-name-limit" {...props}>
      {reached
        ? intl.formatMessage({ id: 'editor.nameLimitReached' }, { max: NAME_MAX_LENGTH })
        : intl.formatMessage({ id: 'editor.nameCounter' }, { count: length, max: NAME_MAX_LENGTH })}
    </Text>
  );
}
