import { Button, Card, Flex, Heading, HStack, Link, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { LuInbox, LuMessageSquare, LuSend } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../app/usePageTitle';
import { EmptyListState, PagedList } from '../../components/DataTable';
import { RelativeTime } from '../../components/RelativeTime';
import { SelectField } from '../../components/SelectField';
import { TextAreaField } from '../../components/TextAreaField';
import { TextField } from '../../components/TextField';
import { LocaleLink } from '../../i18n/LocaleLink';
import { useFieldErrors } from '../auth/useFieldErrors';
import { requiredProblem } from '../auth/validation';
import { useListMyQueriesQuery, useSubmitContactQueryMutation } from './contactApi';
import { ContactStatusBadge } from './ContactStatusBadge';
import { CONTACT_CATEGORIES, MESSAGE_MAX, SUBJECT_MAX, type ContactCategory } from './contactTypes';

const PAGE_SIZE = 10;

function ContactForm() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [submit, { isLoading }] = useSubmitContactQueryMutation();
  const [subject, setSubject] = useState('');
  const [category, setCategory] = useState<ContactCategory>('general');
  const [message, setMessage] = useState('');
  const { check, clear, errorFor, showServerErrors } = useFieldErrors<'subject' | 'message'>();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check({ subject: requiredProblem(subject, 'contact.subject.required'), message: requiredProblem(message, 'contact.message.required') })) return;
    const result = await submit({ subject: subject.trim(), category, message: message.trim() });
    if ('data' in result && result.data) {
      // The server's own words ("We will answer within…") are shown by the notices middleware.
      setSubject('');
      setMessage('');
      setCategory('general');
    } else {
      showServerErrors(result.error, { subject: 'subject', message: 'message' });
    }
  };

  return (
    <Card.Root rounded="2xl" shadow="sm" borderColor="border.muted" asChild>
      <form onSubmit={onSubmit} noValidate aria-labelledby="contact-form-title">
        <Card.Body gap="5">
          <Heading as="h2" size="md" id="contact-form-title">
            {t('contact.form.title')}
          </Heading>
          <Flex gap="5" direction={{ base: 'column', md: 'row' }}>
            <Stack flex="2">
              <TextField
                label={t('contact.subject')}
                name="subject"
                maxLength={SUBJECT_MAX}
                value={subject}
                error={errorFor('subject')}
                onChange={(e) => {
                  setSubject(e.target.value);
                  clear('subject');
                }}
              />
            </Stack>
            <Stack flex="1">
              <SelectField
                label={t('contact.category')}
                name="category"
                value={category}
                onChange={setCategory}
                options={CONTACT_CATEGORIES.map((value) => ({ value, label: t(`contact.category.${value}`) }))}
              />
            </Stack>
          </Flex>
          <TextAreaField
            label={t('contact.message')}
            name="message"
            maxLength={MESSAGE_MAX}
            helperText={t('contact.message.hint')}
            value={message}
            error={errorFor('message')}
            onChange={(e) => {
              setMessage(e.target.value);
              clear('message');
            }}
          />
        </Card.Body>
        <Card.Footer justifyContent="flex-end">
          <Button type="submit" colorPalette="brand" loading={isLoading}>
            <LuSend aria-hidden />
            {t('contact.submit')}
          </Button>
        </Card.Footer>
      </form>
    </Card.Root>
  );
}

function MyQueries() {
  const intl = useIntl();
  const [page, setPage] = useState(1);
  const { data, isLoading } = useListMyQueriesQuery({ page, pageSize: PAGE_SIZE });
  return (
    <Stack gap="4">
      <Heading as="h2" size="lg">
        <FormattedMessage id="contact.myQueries" />
      </Heading>
      <PagedList
        isLoading={isLoading}
        loading={<Skeleton h="24" rounded="xl" />}
        isEmpty={!data || data.total === 0}
        empty={<EmptyListState py="6" icon={<LuInbox />} title={<FormattedMessage id="contact.myQueries.empty" />} />}
        pagination={data && { page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage }}
      >
        <Stack as="ul" listStyleType="none" gap="2" aria-label={intl.formatMessage({ id: 'contact.myQueries' })}>
          {(data?.items ?? []).map((query) => (
            <Card.Root as="li" key={query.id} size="sm" rounded="xl" borderColor="border.muted" aria-label={query.subject}>
              <Card.Body>
                <Flex gap="3" align={{ base: 'flex-start', sm: 'center' }} direction={{ base: 'column', sm: 'row' }}>
                  <Stack gap="0.5" flex="1" minW="0">
                    <Link asChild fontWeight="semibold" color="fg" _hover={{ color: 'brand.fg' }}>
                      <LocaleLink to={`/contact/${query.id}`}>{query.subject}</LocaleLink>
                    </Link>
                    <Text textStyle="sm" color="fg.muted">
                      <FormattedMessage id={`contact.category.${query.category}`} /> · <RelativeTime value={query.updated_at} />
                    </Text>
                  </Stack>
                  <HStack gap="3">
                    <HStack gap="1" color="fg.muted" textStyle="sm">
                      <LuMessageSquare aria-hidden />
                      <FormattedMessage id="contact.replyCount" values={{ count: query.reply_count }} />
                    </HStack>
                    <ContactStatusBadge status={query.status} />
                  </HStack>
                </Flex>
              </Card.Body>
            </Card.Root>
          ))}
        </Stack>
      </PagedList>
    </Stack>
  );
}

/** `/contact`: write to support, and the user's own queries with their status. */
export function ContactPage() {
  usePageTitle('nav.contact');
  return (
    <Stack gap="8" maxW="4xl">
      <Stack gap="1">
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
          <FormattedMessage id="nav.contact" />
        </Heading>
        <Text color="fg.muted" fontSize="lg">
          <FormattedMessage id="contact.subtitle" />
        </Text>
      </Stack>
      <ContactForm />
      <MyQueries />
    </Stack>
  );
}
