import { Box, Card, Container, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LanguageSwitcher } from './LanguageSwitcher';
import { Logo } from './Logo';

interface AuthLayoutProps {
  title: string;
  subtitle?: string;
  children: ReactNode;
  footer?: ReactNode;
}

/** Sign-in, sign-up and password screens: one centred card on a soft gradient. */
export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  return (
    <Flex
      direction="column"
      minH="100dvh"
      bg="canvas"
      bgImage={{
        _light: 'radial-gradient(1200px 600px at 10% -10%, #e8e2ff 0%, transparent 60%), radial-gradient(900px 500px at 110% 10%, #dff3ff 0%, transparent 55%)',
        _dark:
          'radial-gradient(1200px 600px at 10% -10%, rgba(118,80,245,0.25) 0%, transparent 60%), radial-gradient(900px 500px at 110% 10%, rgba(56,189,248,0.12) 0%, transparent 55%)',
      }}
    >
      <Container maxW="6xl" py="4">
        <Flex justify="space-between" align="center">
          <Logo />
          <LanguageSwitcher />
        </Flex>
      </Container>
      <Flex flex="1" align={{ base: 'flex-start', sm: 'center' }} justify="center" px="4" pt={{ base: '4', sm: '0' }} pb="16">
        <Box w="full" maxW="md">
          <Card.Root size="lg" shadow="xl" borderColor="border.muted" rounded="2xl">
            <Card.Body gap="6" px={{ base: '6', sm: '8' }} py={{ base: '7', sm: '9' }}>
              <Stack gap="1.5">
                <Heading as="h1" size="2xl" letterSpacing="-0.02em">
                  {title}
                </Heading>
                {subtitle && <Text color="fg.muted">{subtitle}</Text>}
              </Stack>
              {children}
            </Card.Body>
          </Card.Root>
          {footer && (
            <Text textAlign="center" mt="6" color="fg.muted" textStyle="sm">
              {footer}
            </Text>
          )}
        </Box>
      </Flex>
    </Flex>
  );
}
