import { Center, EmptyState, Flex, Heading, Input, InputGroup, Link, NativeSelect, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuInbox, LuSearch } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../app/usePageTitle';
import { RelativeTime } from '../../components/RelativeTime';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { LocaleLink } from '../../i18n/LocaleLink';
import { Pager } from '../workflows/Pager';
import { useListAllQueriesQuery } from './contactApi';
import { ContactStatusBadge } from './ContactStatusBadge';
import { CONTACT_CATEGORIES, CONTACT_STATUSES, type ContactCategory, type ContactStatus } from './contactTypes';

const PAGE_SIZE = 20;

/** `/support` (support staff, admins): every user's queries, open ones first by default. */
export function SupportQueuePage() {
  usePageTitle('nav.support');
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  // What needs an answer is what support opens the page for.
  const [status, setStatus] = useState<ContactStatus | ''>('open');
  const [category, setCategory] = useState<ContactCategory | ''>('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebouncedValue(search.trim(), 300);
  const { data, isLoading, isFetching } = useListAllQueriesQuery({
    page,
    pageSize: PAGE_SIZE,
    ...(status ? { status } : {}),
    ...(category ? { category } : {}),
    ...(q ? { search: q } : {}),
  });

  return (
    <Stack gap="6">
      <Stack gap="1">
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
          {t('nav.support')}
        </Heading>
        <Text color="fg.muted" fontSize="lg">
          {t('support.subtitle')}
        </Text>
      </Stack>

      <Flex gap="3" direction={{ base: 'column', md: 'row' }}>
        <NativeSelect.Root width={{ base: 'full', md: '48' }}>
          <NativeSelect.Field
            bg="bg.panel"
            aria-label={t('support.filter.status')}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as ContactStatus | '');
              setPage(1);
            }}
          >
            <option value="">{t('support.filter.allStatuses')}</option>
            {CONTACT_STATUSES.map((value) => (
              <option key={value} value={value}>
                {t(`contact.status.${value}`)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <NativeSelect.Root width={{ base: 'full', md: '48' }}>
          <NativeSelect.Field
            bg="bg.panel"
            aria-label={t('support.filter.category')}
            value={category}
            onChange={(e) => {
              setCategory(e.target.value as ContactCategory | '');
              setPage(1);
            }}
          >
            <option value="">{t('support.filter.allCategories')}</option>
            {CONTACT_CATEGORIES.map((value) => (
              <option key={value} value={value}>
                {t(`contact.category.${value}`)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <InputGroup flex="1" startElement={<LuSearch aria-hidden />}>
          <Input
            type="search"
            bg="bg.panel"
            aria-label={t('support.search')}
            placeholder={t('support.searchPlaceholder')}
            maxLength={200}
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
          />
        </InputGroup>
      </Flex>

      {isLoading ? (
        <Skeleton h="40" rounded="xl" />
      ) : !data || data.total === 0 ? (
        <Center py="10">
          <EmptyState.Root maxW="md">
            <EmptyState.Content>
              <EmptyState.Indicator>
                <LuInbox />
              </EmptyState.Indicator>
              <EmptyState.Title>{t('support.empty')}</EmptyState.Title>
            </EmptyState.Content>
          </EmptyState.Root>
        </Center>
      ) : (
        <Stack gap="4" opacity={isFetching ? 0.7 : 1} transition="opacity 0.2s">
          <Table.ScrollArea borderWidth="1px" borderColor="border.muted" rounded="xl" bg="bg.panel">
            <Table.Root size="sm" aria-label={t('support.queueLabel')}>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t('support.column.subject')}</Table.ColumnHeader>
                  <Table.ColumnHeader>{t('support.column.user')}</Table.ColumnHeader>
                  <Table.ColumnHeader>{t('support.column.category')}</Table.ColumnHeader>
                  <Table.ColumnHeader>{t('support.column.status')}</Table.ColumnHeader>
                  <Table.ColumnHeader>{t('support.column.age')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('support.column.replies')}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {data.items.map((query) => (
                  <Table.Row key={query.id}>
                    <Table.Cell maxW="sm">
                      <Link asChild fontWeight="semibold" color="fg" _hover={{ color: 'brand.fg' }}>
                        <LocaleLink to={`/support/${query.id}`}>{query.subject}</LocaleLink>
                      </Link>
                    </Table.Cell>
                    <Table.Cell>
                      <Text>{query.user.name}</Text>
                      <Text textStyle="xs" color="fg.muted">
                        {query.user.email}
                      </Text>
                    </Table.Cell>
                    <Table.Cell>
                      <FormattedMessage id={`contact.category.${query.category}`} />
                    </Table.Cell>
                    <Table.Cell>
                      <ContactStatusBadge status={query.status} />
                    </Table.Cell>
                    <Table.Cell color="fg.muted">
                      <RelativeTime value={query.created_at} />
                    </Table.Cell>
                    <Table.Cell textAlign="end">{query.reply_count}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
          {data.total > PAGE_SIZE && <Pager page={page} pageSize={PAGE_SIZE} total={data.total} onChange={setPage} />}
        </Stack>
      )}
    </Stack>
  );
}
