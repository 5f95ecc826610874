import { Card, Field, HStack, Link, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { useParams } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { useGetContactQueryQuery, useSetContactQueryStatusMutation } from './contactApi';
import { CONTACT_STATUSES, type ContactStatus } from './contactTypes';
import { QueryHeader, QueryPlaceholder } from './QueryHeader';
import { QueryThread, ReplyForm } from './QueryThread';

/** `/support/:queryId` (support staff, admins): a user's query, the answer, and its status. */
export function SupportQueryPage() {
  usePageTitle('support.query.title');
  const intl = useIntl();
  const { queryId = '' } = useParams();
  const { data: query, isLoading } = useGetContactQueryQuery(queryId);
  const [setStatus, { isLoading: saving }] = useSetContactQueryStatusMutation();
  if (!query) return <QueryPlaceholder loading={isLoading} backTo="/support" backLabelId="support.backToQueue" />;
  return (
    <Stack gap="6" maxW="3xl">
      <QueryHeader
        query={query}
        backTo="/support"
        backLabelId="support.backToQueue"
        extra={
          <HStack gap="1">
            <Text>{query.user.name}</Text>
            <Link href={`mailto:${query.user.email}`} color="fg.muted">
              &lt;{query.user.email}&gt;
            </Link>
          </HStack>
        }
      />
      <Field.Root maxW="xs" disabled={saving}>
        <Field.Label>{intl.formatMessage({ id: 'support.status' })}</Field.Label>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field name="status" value={query.status} onChange={(e) => void setStatus({ id: query.id, status: e.target.value as ContactStatus })}>
            {CONTACT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {intl.formatMessage({ id: `contact.status.${status}` })}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <QueryThread query={query} />
      <Card.Root rounded="2xl" borderColor="border.muted">
        <Card.Body>
          <ReplyForm queryId={query.id} labelId="support.reply.title" hintId="support.reply.hint" />
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
