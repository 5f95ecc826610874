import { Card, Stack } from '@chakra-ui/react';
import { useParams } from 'react-router-dom';
import { usePageTitle } from '../../app/usePageTitle';
import { useGetContactQueryQuery } from './contactApi';
import { QueryHeader, QueryPlaceholder } from './QueryHeader';
import { QueryThread, ReplyForm } from './QueryThread';

/** `/contact/:queryId`: the user's own query, support's answers, and a reply box. */
export function ContactQueryPage() {
  usePageTitle('contact.query.title');
  const { queryId = '' } = useParams();
  const { data: query, isLoading } = useGetContactQueryQuery(queryId);
  if (!query) return <QueryPlaceholder loading={isLoading} backTo="/contact" backLabelId="contact.backToContact" />;
  return (
    <Stack gap="6" maxW="3xl">
      <QueryHeader query={query} backTo="/contact" backLabelId="contact.backToContact" />
      <QueryThread query={query} />
      <Card.Root rounded="2xl" borderColor="border.muted">
        <Card.Body>
          <ReplyForm queryId={query.id} labelId="contact.reply.title" hintId={query.status === 'open' ? undefined : 'contact.reply.reopens'} />
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
