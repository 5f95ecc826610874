import { Badge, Box, Button, Container, Flex, Heading, HStack, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { LuArrowRight, LuBot, LuDownload, LuFolderInput, LuGitMerge, LuHistory, LuLayoutGrid, LuSparkles, LuActivity } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePageTitle } from '../../app/usePageTitle';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { Logo } from '../../components/Logo';
import { LocaleLink } from '../../i18n/LocaleLink';
import { ProductPreview } from './ProductPreview';

// What a visitor sees at `/`: what Stepwise does and the way in. Exactly one "Sign in" and one
// "Create account" link, so there is never doubt which to press.

const features: { id: string; icon: IconType }[] = [
  { id: 'import', icon: LuFolderInput },
  { id: 'shape', icon: LuGitMerge },
  { id: 'enrich', icon: LuSparkles },
  { id: 'export', icon: LuDownload },
  { id: 'progress', icon: LuActivity },
  { id: 'agents', icon: LuBot },
  { id: 'history', icon: LuHistory },
  { id: 'gallery', icon: LuLayoutGrid },
];

export function LandingPage() {
  usePageTitle('app.name');
  const intl = useIntl();
  return (
    <Box minH="100dvh" bg="canvas">
      <Box
        bgImage={{
          _light: 'radial-gradient(1000px 520px at 15% -5%, #e6defe 0%, transparent 60%), radial-gradient(800px 480px at 95% 0%, #dcefff 0%, transparent 55%)',
          _dark:
            'radial-gradient(1000px 520px at 15% -5%, rgba(118,80,245,0.28) 0%, transparent 60%), radial-gradient(800px 480px at 95% 0%, rgba(56,189,248,0.12) 0%, transparent 55%)',
        }}
      >
        <Container maxW="7xl" as="header">
          <Flex h="16" align="center" gap="2">
            <Logo />
            <HStack ms="auto" gap="1">
              <LanguageSwitcher />
              {/* The tutorials are public: a visitor may watch before signing up. */}
              <Button asChild variant="ghost" size="sm" display={{ base: 'none', sm: 'inline-flex' }}>
                <LocaleLink to="/videos">{intl.formatMessage({ id: 'nav.videos' })}</LocaleLink>
              </Button>
              <Button asChild variant="outline" size="sm" bg="bg.panel">
                <LocaleLink to="/login">{intl.formatMessage({ id: 'auth.login.submit' })}</LocaleLink>
              </Button>
            </HStack>
          </Flex>
        </Container>

        <Container maxW="7xl" as="main" pt={{ base: '10', md: '20' }} pb={{ base: '16', md: '24' }}>
          <Flex direction={{ base: 'column', lg: 'row' }} align="center" gap={{ base: '12', lg: '16' }}>
            <Stack gap="6" flex="1" maxW="2xl">
              <Badge alignSelf="flex-start" colorPalette="brand" variant="surface" rounded="full" px="3" py="1">
                <FormattedMessage id="landing.badge" />
              </Badge>
              <Heading as="h1" fontSize={{ base: '4xl', md: '6xl' }} lineHeight="1.08" letterSpacing="-0.035em" fontWeight="bold">
                <FormattedMessage id="landing.title" />
              </Heading>
              <Text fontSize={{ base: 'lg', md: 'xl' }} color="fg.muted" maxW="xl">
                <FormattedMessage id="landing.subtitle" />
              </Text>
              <Flex gap="3" wrap="wrap">
                <Button asChild colorPalette="brand" size="xl" shadow="md">
                  <LocaleLink to="/signup">
                    <FormattedMessage id="auth.signup.submit" />
                    <LuArrowRight aria-hidden />
                  </LocaleLink>
                </Button>
                <Button asChild variant="ghost" size="xl">
                  <a href="#features">
                    <FormattedMessage id="landing.explore" />
                  </a>
                </Button>
              </Flex>
            </Stack>
            <Flex flex="1" justify="center" w="full">
              <ProductPreview />
            </Flex>
          </Flex>
        </Container>
      </Box>

      <Box as="section" id="features" aria-labelledby="features-title" py={{ base: '16', md: '24' }} bg="bg">
        <Container maxW="7xl">
          <Stack gap="3" textAlign="center" maxW="2xl" mx="auto" mb="12">
            <Heading as="h2" id="features-title" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
              <FormattedMessage id="landing.features.title" />
            </Heading>
            <Text color="fg.muted" fontSize="lg">
              <FormattedMessage id="landing.features.subtitle" />
            </Text>
          </Stack>
          <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="5">
            {features.map((feature) => (
              <Stack
                key={feature.id}
                gap="3"
                p="6"
                rounded="2xl"
                borderWidth="1px"
                borderColor="border.muted"
                bg="bg.panel"
                shadow="xs"
                transition="box-shadow 0.2s, transform 0.2s"
                _hover={{ shadow: 'md', transform: 'translateY(-2px)' }}
              >
                <Flex boxSize="10" rounded="xl" align="center" justify="center" bg="brand.subtle" color="brand.fg">
                  <Icon as={feature.icon} boxSize="5" aria-hidden />
                </Flex>
                <Heading as="h3" size="md">
                  <FormattedMessage id={`landing.feature.${feature.id}.title`} />
                </Heading>
                <Text color="fg.muted" textStyle="sm" lineHeight="1.6">
                  <FormattedMessage id={`landing.feature.${feature.id}.body`} />
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        </Container>
      </Box>

      <Box as="footer" borderTopWidth="1px" borderColor="border.muted" py="8" bg="bg">
        <Container maxW="7xl">
          <Flex justify="space-between" align="center" gap="4" wrap="wrap" color="fg.muted" textStyle="sm">
            <Text>
              <FormattedMessage id="landing.footer" values={{ year: String(new Date().getFullYear()) }} />
            </Text>
            <Text>
              <FormattedMessage id="landing.footer.tagline" />
            </Text>
          </Flex>
        </Container>
      </Box>
    </Box>
  );
}
