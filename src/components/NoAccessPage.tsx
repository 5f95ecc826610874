import { Button, Center, EmptyState } from '@chakra-ui/react';
import { FormattedMessage } from 'react-intl';
import { usePageTitle } from '../app/usePageTitle';
import { LocaleLink } from '../i18n/LocaleLink';
import { LuShieldOff } from './firstLoadIcons';

/** Shown instead of a staff or admin page to someone without the role (the server's 403, said
 *  before any call is made), inside the app frame so the rest of the app stays one click away. */
export function NoAccessPage() {
  usePageTitle('noAccess.title');
  return (
    <Center py="16">
      <EmptyState.Root maxW="md">
        <EmptyState.Content>
          <EmptyState.Indicator>
            <LuShieldOff />
          </EmptyState.Indicator>
          <EmptyState.Title as="h1">
            <FormattedMessage id="noAccess.title" />
          </EmptyState.Title>
          <EmptyState.Description>
            <FormattedMessage id="noAccess.body" />
          </EmptyState.Description>
          <Button asChild colorPalette="brand" variant="outline">
            <LocaleLink to="/">
              <FormattedMessage id="notFound.home" />
            </LocaleLink>
          </Button>
        </EmptyState.Content>
      </EmptyState.Root>
    </Center>
  );
}
