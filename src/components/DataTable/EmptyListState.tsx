import { Center, EmptyState, Stack, Text, type CenterProps, type EmptyStateRootProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface EmptyListStateProps {
  title: ReactNode;
  description?: ReactNode;
  /** An icon above the title; without one (and without a description) the title is a quiet line of text. */
  icon?: ReactNode;
  /** What the user can do about it (create the first one…). */
  action?: ReactNode;
  /** Space above and below (the lists differ: a page's main list has more). */
  py?: CenterProps['py'];
  /** The dashed card of a page's main list. */
  framed?: boolean;
  /** Colour of the icon. */
  iconColor?: string;
  maxW?: EmptyStateRootProps['maxW'];
  /** `text` is a quiet line, `state` the centred empty state; by default `state` when there is more than a title. */
  variant?: 'text' | 'state';
}

/** What a list shows when it has nothing: a line of text, or an icon, a title, a hint and an action. */
export function EmptyListState({ title, description, icon, action, py = '10', framed = false, iconColor, maxW = 'md', variant }: EmptyListStateProps) {
  if ((variant ?? (icon || description || action ? 'state' : 'text')) === 'text') {
    return <Text color="fg.muted">{title}</Text>;
  }
  const frame: Partial<EmptyStateRootProps> = framed ? { borderWidth: '1px', borderStyle: 'dashed', rounded: '2xl', bg: 'bg.panel' } : {};
  return (
    <Center py={py}>
      <EmptyState.Root maxW={maxW} {...frame}>
        <EmptyState.Content>
          {icon && <EmptyState.Indicator color={iconColor}>{icon}</EmptyState.Indicator>}
          {description ? (
            <Stack textAlign="center" gap="1">
              <EmptyState.Title>{title}</EmptyState.Title>
              <EmptyState.Description>{description}</EmptyState.Description>
            </Stack>
          ) : (
            <EmptyState.Title>{title}</EmptyState.Title>
          )}
          {action}
        </EmptyState.Content>
      </EmptyState.Root>
    </Center>
  );
}
