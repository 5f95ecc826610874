import { Button, Center, Heading, Stack, Text } from '@chakra-ui/react';
import { FormattedMessage } from 'react-intl';
import { usePageTitle } from '../app/usePageTitle';
import { LocaleLink } from '../i18n/LocaleLink';
import { Logo } from './Logo';

/** Any unknown path, in either language, with a way back home. */
export function NotFoundPage() {
  usePageTitle('notFound.title');
  return (
    <Center minH="100dvh" bg="canvas" px="6">
      <Stack gap="5" align="center" textAlign="center" maxW="md">
        <Logo />
        <Text fontSize="6xl" fontWeight="bold" color="brand.fg" lineHeight="1" aria-hidden>
          404
        </Text>
        <Heading as="h1" size="2xl">
          <FormattedMessage id="notFound.title" />
        </Heading>
        <Text color="fg.muted">
          <FormattedMessage id="notFound.body" />
        </Text>
        <Button asChild colorPalette="brand">
          <LocaleLink to="/">
            <FormattedMessage id="notFound.home" />
          </LocaleLink>
        </Button>
      </Stack>
    </Center>
  );
}
