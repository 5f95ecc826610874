import { Box, Flex, Spinner, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LuBot } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { VersionedWrite } from '../workflows/versioning';
import { CommitCardView } from './CommitCardView';
import type { ConversationMessageOut, MessagePart } from './conversationTypes';
import { MessageMarkdown } from './MessageMarkdown';
import { ToolCallCard } from './ToolCallCard';

type ToolResult = Extract<MessagePart, { type: 'tool_result' }>;

/**
 * The parts in the order they happened; a tool's result joins its call's card. A result belongs to
 * the earliest call before it with its id that has none yet: some OpenAI-compatible servers number
 * their tool calls afresh in every model step (`call_1`, `call_2`… again), so an id alone is not unique.
 */
function renderParts(message: ConversationMessageOut): ReactNode[] {
  const parts = message.parts.length ? message.parts : message.content ? [{ type: 'text' as const, text: message.content }] : [];
  const resultOf = new Map<number, ToolResult>();
  const joined = new Set<number>();
  const waiting = new Map<string, number[]>();
  parts.forEach((part, index) => {
    if (part.type === 'tool_call') waiting.set(part.id, [...(waiting.get(part.id) ?? []), index]);
    if (part.type === 'tool_result') {
      const call = waiting.get(part.id)?.shift();
      if (call === undefined) return;
      resultOf.set(call, part);
      joined.add(index);
    }
  });
  return parts.map((part, index) => {
    if (part.type === 'text') return <MessageMarkdown key={index} text={part.text} />;
    if (part.type === 'tool_call') return <ToolCallCard key={index} call={part} result={resultOf.get(index)} />;
    return joined.has(index) ? null : <ToolCallCard key={index} result={part} />;
  });
}

export interface MessageItemProps {
  message: ConversationMessageOut;
  /** This answer is still streaming in. */
  streaming?: boolean;
  write?: VersionedWrite;
  /** A dry run's proposal: apply it as shown (the server kept its edits). */
  onApply?: () => void;
  applyDisabled?: boolean;
}

/** One message: the user's as plain text, the assistant's as markdown with tool cards and its commit. */
export function MessageItem({ message, streaming, write, onApply, applyDisabled }: MessageItemProps) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  if (message.role === 'user') {
    return (
      <Box
        as="article"
        aria-label={t('chat.role.user')}
        data-testid="chat-message"
        data-role="user"
        alignSelf="flex-end"
        maxW="90%"
        bg="brand.subtle"
        color="fg"
        rounded="lg"
        px="3"
        py="2"
      >
        <Text textStyle="sm" whiteSpace="pre-wrap" wordBreak="break-word">
          {message.content}
        </Text>
      </Box>
    );
  }
  const empty = message.parts.length === 0 && !message.content;
  return (
    <Flex
      as="article"
      aria-label={t('chat.role.assistant')}
      data-testid="chat-message"
      data-role="assistant"
      data-status={streaming ? 'streaming' : message.status}
      gap="2"
      align="flex-start"
      maxW="100%"
    >
      <Box pt="1" color="brand.fg" aria-hidden>
        <LuBot />
      </Box>
      <Box flex="1" minW="0">
        {renderParts(message)}
        {streaming && empty && (
          <Flex align="center" gap="2" color="fg.muted" textStyle="sm">
            <Spinner size="xs" />
            {t('chat.thinking')}
          </Flex>
        )}
        {message.commit && <CommitCardView commit={message.commit} write={write} onApply={onApply} applyDisabled={applyDisabled} />}
        {!streaming && message.status !== 'complete' && (
          <Text textStyle="xs" color={message.status === 'error' ? 'fg.error' : 'fg.muted'} mt="1">
            {t(message.status === 'error' ? 'chat.status.error' : 'chat.status.partial')}
          </Text>
        )}
      </Box>
    </Flex>
  );
}
