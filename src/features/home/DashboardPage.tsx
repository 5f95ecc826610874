import { Badge, Button, Card, DataList, Flex, Heading, Icon, SimpleGrid, Stack, Text, Avatar, HStack } from '@chakra-ui/react';
import { LuArrowRight } from 'react-icons/lu';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { areasFor } from '../../app/areas';
import { useAppSelector } from '../../app/hooks';
import { usePageTitle } from '../../app/usePageTitle';
import { LocaleLink } from '../../i18n/LocaleLink';
import { selectUser } from '../auth/authSlice';

/** The signed-in home: a greeting, the account at a glance, and a way into every area. */
export function DashboardPage() {
  usePageTitle('nav.dashboard');
  const intl = useIntl();
  const user = useAppSelector(selectUser);
  if (!user) return null;
  const otherAreas = areasFor(user).filter((area) => area.path !== '/');

  return (
    <Stack gap={{ base: '8', md: '10' }}>
      <Stack gap="1">
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
          <FormattedMessage id="dashboard.greeting" values={{ name: user.name }} />
        </Heading>
        <Text color="fg.muted" fontSize="lg">
          <FormattedMessage id="dashboard.subtitle" />
        </Text>
      </Stack>

      <SimpleGrid columns={{ base: 1, lg: 3 }} gap="6">
        <Card.Root gridColumn={{ lg: 'span 1' }} rounded="2xl" shadow="sm" borderColor="border.muted">
          <Card.Header>
            <HStack gap="3">
              <Avatar.Root size="lg" colorPalette="brand">
                <Avatar.Fallback name={user.name} />
              </Avatar.Root>
              <Stack gap="0" minW="0">
                <Card.Title as="h2" truncate>
                  {user.name}
                </Card.Title>
                <Text color="fg.muted" textStyle="sm" truncate>
                  {user.email}
                </Text>
              </Stack>
            </HStack>
          </Card.Header>
          <Card.Body>
            <DataList.Root orientation="horizontal" size="sm" gap="3">
              <DataList.Item>
                <DataList.ItemLabel>
                  <FormattedMessage id="dashboard.account.role" />
                </DataList.ItemLabel>
                <DataList.ItemValue>
                  <Badge colorPalette="brand" variant="subtle">
                    <FormattedMessage id={`role.${user.role}`} />
                  </Badge>
                </DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>
                  <FormattedMessage id="dashboard.account.memberSince" />
                </DataList.ItemLabel>
                <DataList.ItemValue>
                  <FormattedDate value={user.created_at} year="numeric" month="long" day="numeric" />
                </DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>
                  <FormattedMessage id="settings.language" />
                </DataList.ItemLabel>
                <DataList.ItemValue>
                  <FormattedMessage id={`settings.language.${user.locale}`} />
                </DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>
                  <FormattedMessage id="settings.theme" />
                </DataList.ItemLabel>
                <DataList.ItemValue>
                  <FormattedMessage id={`settings.theme.${user.theme}`} />
                </DataList.ItemValue>
              </DataList.Item>
            </DataList.Root>
          </Card.Body>
        </Card.Root>

        <Stack gap="4" gridColumn={{ lg: 'span 2' }}>
          <Heading as="h2" size="lg">
            <FormattedMessage id="dashboard.areas.title" />
          </Heading>
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            {otherAreas.map((area) => (
              <Card.Root key={area.id} rounded="2xl" shadow="sm" borderColor="border.muted" _hover={{ shadow: 'md' }} transition="box-shadow 0.2s">
                <Card.Body gap="3">
                  <Flex boxSize="10" rounded="xl" align="center" justify="center" bg="brand.subtle" color="brand.fg">
                    <Icon as={area.icon} boxSize="5" aria-hidden />
                  </Flex>
                  <Card.Title as="h3">
                    <FormattedMessage id={area.labelId} />
                  </Card.Title>
                  <Card.Description>
                    <FormattedMessage id={area.descriptionId} />
                  </Card.Description>
                </Card.Body>
                <Card.Footer>
                  <Button asChild variant="outline" size="sm">
                    <LocaleLink
                      to={area.path}
                      aria-label={intl.formatMessage({ id: 'dashboard.areas.open' }, { area: intl.formatMessage({ id: area.labelId }) })}
                    >
                      <FormattedMessage id="dashboard.areas.openShort" />
                      <LuArrowRight aria-hidden />
                    </LocaleLink>
                  </Button>
                </Card.Footer>
              </Card.Root>
            ))}
          </SimpleGrid>
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}
