import { Box, Button, Container, Flex, HStack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { useLocation } from 'react-router-dom';
import { useAppSelector } from '../app/hooks';
import { selectAuth } from '../features/auth/authSlice';
import { LocaleLink } from '../i18n/LocaleLink';
import { AppShell } from './AppShell';
import { LanguageSwitcher } from './LanguageSwitcher';
import { Logo } from './Logo';
import { PageSpinner } from './PageSpinner';

/** A page anyone may see (the gallery): inside the app frame when signed in, with a visitor's
 *  header (sign in, create account) otherwise. */
export function PublicOrAppShell({ children }: { children: ReactNode }) {
  const { initialized, isAuthenticated } = useAppSelector(selectAuth);
  const intl = useIntl();
  // Signing in from here comes back to this page (the gallery), not the dashboard.
  const { pathname, search } = useLocation();
  if (!initialized) return <PageSpinner />;
  if (isAuthenticated) return <AppShell>{children}</AppShell>;
  return (
    <Flex direction="column" minH="100dvh" bg="canvas">
      <Box as="header" position="sticky" top="0" zIndex="sticky" bg="bg/80" backdropFilter="blur(10px)" borderBottomWidth="1px" borderColor="border.muted">
        <Container maxW="7xl">
          <Flex h="16" align="center" gap="2">
            <Logo />
            <HStack ms="auto" gap="1">
              <LanguageSwitcher display={{ base: 'none', sm: 'inline-flex' }} />
              <Button asChild variant="ghost" size="sm">
                <LocaleLink to="/login" state={{ from: pathname + search }}>
                  {intl.formatMessage({ id: 'auth.login.submit' })}
                </LocaleLink>
              </Button>
              <Button asChild colorPalette="brand" size="sm">
                <LocaleLink to="/signup">{intl.formatMessage({ id: 'gallery.signUp' })}</LocaleLink>
              </Button>
            </HStack>
          </Flex>
        </Container>
      </Box>
      <Box as="main" flex="1">
        <Container maxW="7xl" py={{ base: '6', md: '10' }}>
          {children}
        </Container>
      </Box>
    </Flex>
  );
}
