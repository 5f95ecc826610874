import { Flex, Heading, Input, InputGroup, Link, NativeSelect, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuInbox, LuSearch } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../app/usePageTitle';
import { RelativeTime } from '../../components/RelativeTime';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { LocaleLink } from '../../i18n/LocaleLink';
import { DataTable, EmptyListState } from '../../components/DataTable';
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

      <DataTable
        label={t('support.queueLabel')}
        loading={<Skeleton h="40" rounded="xl" />}
        isLoading={isLoading}
        // No answer after loading (a failed call, already shown as a notice) reads as an empty queue.
        rows={data?.items ?? (isLoading ? undefined : [])}
        rowKey={(query) => query.id}
        isFetching={isFetching}
        empty={<EmptyListState icon={<LuInbox />} title={t('support.empty')} variant="state" />}
        pagination={data && { page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage }}
        columns={[
          {
            id: 'subject',
            header: t('support.column.subject'),
            cellProps: { maxW: 'sm' },
            cell: (query) => (
              <Link asChild fontWeight="semibold" color="fg" _hover={{ color: 'brand.fg' }}>
                <LocaleLink to={`/support/${query.id}`}>{query.subject}</LocaleLink>
              </Link>
            ),
          },
          {
            id: 'user',
            header: t('support.column.user'),
            cell: (query) => (
              <>
                <Text>{query.user.name}</Text>
                <Text textStyle="xs" color="fg.muted">
                  {query.user.email}
                </Text>
              </>
            ),
          },
          { id: 'category', header: t('support.column.category'), cell: (query) => <FormattedMessage id={`contact.category.${query.category}`} /> },
          { id: 'status', header: t('support.column.status'), cell: (query) => <ContactStatusBadge status={query.status} /> },
          { id: 'age', header: t('support.column.age'), cellProps: { color: 'fg.muted' }, cell: (query) => <RelativeTime value={query.created_at} /> },
          { id: 'replies', header: t('support.column.replies'), align: 'end', cell: (query) => query.reply_count },
        ]}
      />
    </Stack>
  );
}
