import { Heading, Stack, Tabs, Text } from '@chakra-ui/react';
import { FormattedMessage, useIntl } from 'react-intl';
import { LocaleLink } from '../../i18n/LocaleLink';

const ADMIN_PAGES = [
  { value: 'invitation-codes', labelId: 'admin.tab.invitationCodes' },
  { value: 'videos', labelId: 'admin.tab.videos' },
] as const;

export type AdminPage = (typeof ADMIN_PAGES)[number]['value'];

/** The Admin area's title and its pages as tabs (each a link, so every page has its own address). */
export function AdminHeader({ current }: { current: AdminPage }) {
  const intl = useIntl();
  return (
    <Stack gap="4">
      <Stack gap="1">
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
          <FormattedMessage id="nav.admin" />
        </Heading>
        <Text color="fg.muted" fontSize="lg">
          <FormattedMessage id="admin.subtitle" />
        </Text>
      </Stack>
      <Tabs.Root value={current} variant="line" colorPalette="brand">
        <Tabs.List aria-label={intl.formatMessage({ id: 'nav.admin' })}>
          {ADMIN_PAGES.map((page) => (
            <Tabs.Trigger key={page.value} value={page.value} asChild>
              <LocaleLink to={`/admin/${page.value}`}>
                <FormattedMessage id={page.labelId} />
              </LocaleLink>
            </Tabs.Trigger>
          ))}
        </Tabs.List>
      </Tabs.Root>
    </Stack>
  );
}
