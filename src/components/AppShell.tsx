import { Box, Container, Flex, HStack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { LanguageSwitcher } from './LanguageSwitcher';
import { Logo } from './Logo';
import { MobileNav } from './MobileNav';
import { NavLinks } from './NavLinks';
import { UserMenu } from './UserMenu';

/** The signed-in frame: header with logo, area navigation, language and user menu; page below. */
export function AppShell({
  children,
  fluid = false,
}: {
  children: ReactNode;
  /** Full width, no page padding: the workflow editor's canvas. */ fluid?: boolean;
}) {
  const intl = useIntl();
  return (
    // The editor (fluid) fills the screen exactly on wide screens: its panels scroll inside
    // themselves, so the page never grows with the catalogue's list.
    <Flex direction="column" minH="100dvh" h={fluid ? { lg: '100dvh' } : undefined} bg="canvas">
      <Box as="header" position="sticky" top="0" zIndex="sticky" bg="bg/80" backdropFilter="blur(10px)" borderBottomWidth="1px" borderColor="border.muted">
        <Container maxW="7xl">
          <Flex h="16" align="center" gap="3">
            <MobileNav />
            <Logo />
            <Box as="nav" aria-label={intl.formatMessage({ id: 'nav.main' })} display={{ base: 'none', md: 'block' }} ms="6">
              <NavLinks direction="row" />
            </Box>
            <HStack ms="auto" gap="1">
              <LanguageSwitcher display={{ base: 'none', md: 'inline-flex' }} />
              <UserMenu />
            </HStack>
          </Flex>
        </Container>
      </Box>
      <Box as="main" flex="1" display="flex" flexDirection="column" minH="0">
        {fluid ? (
          children
        ) : (
          <Container maxW="7xl" py={{ base: '6', md: '10' }}>
            {children}
          </Container>
        )}
      </Box>
    </Flex>
  );
}
