import { Button, Center, Heading, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LuArrowLeft } from 'react-icons/lu';
import { FormattedMessage } from 'react-intl';
import { LocaleLink } from '../../i18n/LocaleLink';
import { ContactStatusBadge } from './ContactStatusBadge';
import type { ContactQuery } from './contactTypes';

/** Back link, subject, status and category of one query; `extra` for what only staff see. */
export function QueryHeader({ query, backTo, backLabelId, extra }: { query: ContactQuery; backTo: string; backLabelId: string; extra?: ReactNode }) {
  return (
    <Stack gap="3">
      <Button asChild variant="ghost" size="sm" alignSelf="flex-start" ms="-2">
        <LocaleLink to={backTo}>
          <LuArrowLeft aria-hidden />
          <FormattedMessage id={backLabelId} />
        </LocaleLink>
      </Button>
      <Heading as="h1" size={{ base: 'xl', md: '2xl' }} letterSpacing="-0.02em" wordBreak="break-word">
        {query.subject}
      </Heading>
      <HStack gap="3" wrap="wrap" color="fg.muted" textStyle="sm">
        <ContactStatusBadge status={query.status} />
        <Text>
          <FormattedMessage id={`contact.category.${query.category}`} />
        </Text>
        {extra}
      </HStack>
    </Stack>
  );
}

/** While a query loads, or when it cannot be shown (missing, or someone else's: the same 404). */
export function QueryPlaceholder({ loading, backTo, backLabelId }: { loading: boolean; backTo: string; backLabelId: string }) {
  if (loading) {
    return (
      <Center py="16">
        <Spinner color="brand.solid" />
      </Center>
    );
  }
  return (
    <Stack gap="4" align="flex-start">
      <Heading as="h1" size="xl">
        <FormattedMessage id="contact.notFound" />
      </Heading>
      <Button asChild variant="outline">
        <LocaleLink to={backTo}>
          <LuArrowLeft aria-hidden />
          <FormattedMessage id={backLabelId} />
        </LocaleLink>
      </Button>
    </Stack>
  );
}
