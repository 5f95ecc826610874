import { Avatar, Badge, Button, Card, Flex, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { LuSend } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { initials } from '../../components/initials';
import { RelativeTime } from '../../components/RelativeTime';
import { TextAreaField } from '../../components/TextAreaField';
import { useReplyToContactQueryMutation } from './contactApi';
import { MESSAGE_MAX, type ContactQuery, type ReplyAuthorRole } from './contactTypes';

function ThreadMessage({
  authorName,
  authorRole,
  message,
  createdAt,
}: {
  authorName: string;
  authorRole: ReplyAuthorRole;
  message: string;
  createdAt: string;
}) {
  const fromSupport = authorRole === 'support';
  return (
    <Card.Root
      as="li"
      size="sm"
      rounded="xl"
      borderColor={fromSupport ? 'brand.muted' : 'border.muted'}
      bg={fromSupport ? 'brand.subtle' : 'bg.panel'}
      aria-label={authorName}
    >
      <Card.Body gap="2">
        <HStack gap="2" wrap="wrap">
          <Avatar.Root size="2xs" colorPalette={fromSupport ? 'brand' : 'gray'}>
            <Avatar.Fallback>{initials(authorName)}</Avatar.Fallback>
          </Avatar.Root>
          <Text fontWeight="semibold">{authorName}</Text>
          {fromSupport && (
            <Badge colorPalette="brand" variant="solid" size="sm">
              <FormattedMessage id="contact.thread.supportTeam" />
            </Badge>
          )}
          <Text textStyle="sm" color="fg.muted">
            <RelativeTime value={createdAt} />
          </Text>
        </HStack>
        {/* Plain text as written: line breaks kept, nothing interpreted as markup. */}
        <Text whiteSpace="pre-wrap" wordBreak="break-word">
          {message}
        </Text>
      </Card.Body>
    </Card.Root>
  );
}

/** The original message and every reply, oldest first, with the user's and support's apart. */
export function QueryThread({ query }: { query: ContactQuery }) {
  const intl = useIntl();
  return (
    <Stack as="ol" listStyleType="none" gap="3" aria-label={intl.formatMessage({ id: 'contact.thread.label' })}>
      <ThreadMessage authorName={query.user.name} authorRole="user" message={query.text} createdAt={query.created_at} />
      {query.replies.map((reply) => (
        <ThreadMessage key={reply.id} authorName={reply.author_name} authorRole={reply.author_role} message={reply.message} createdAt={reply.created_at} />
      ))}
    </Stack>
  );
}

/** The reply box under a thread; the server decides what a reply does to the status. */
export function ReplyForm({ queryId, labelId, hintId }: { queryId: string; labelId: string; hintId?: string }) {
  const intl = useIntl();
  const [reply, { isLoading }] = useReplyToContactQueryMutation();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!message.trim()) {
      setError(intl.formatMessage({ id: 'contact.message.required' }));
      return;
    }
    const result = await reply({ id: queryId, message: message.trim() });
    if ('data' in result) setMessage('');
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="3">
        <Heading as="h2" size="sm">
          <FormattedMessage id={labelId} />
        </Heading>
        <TextAreaField
          label={intl.formatMessage({ id: 'contact.reply.field' })}
          name="reply"
          rows={4}
          maxLength={MESSAGE_MAX}
          helperText={hintId ? intl.formatMessage({ id: hintId }) : undefined}
          value={message}
          error={error}
          onChange={(e) => {
            setMessage(e.target.value);
            setError(null);
          }}
        />
        <Flex justify="flex-end">
          <Button type="submit" colorPalette="brand" loading={isLoading}>
            <LuSend aria-hidden />
            <FormattedMessage id="contact.reply.send" />
          </Button>
        </Flex>
      </Stack>
    </form>
  );
}
