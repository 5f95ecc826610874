import { Badge, Button, Card, DataList, Flex, Heading, Icon, Link, SimpleGrid, Skeleton, Stack, Text, Avatar, HStack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LuArrowRight } from 'react-icons/lu';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { areasFor } from '../../app/areas';
import { areaIcons } from '../../app/areaIcons';
import { useAppSelector } from '../../app/hooks';
import { usePageTitle } from '../../app/usePageTitle';
import { RelativeTime } from '../../components/RelativeTime';
import { LocaleLink } from '../../i18n/LocaleLink';
import { selectUser } from '../auth/authSlice';
import { formatRunDuration, runLink } from '../runs/runFigures';
import { RunStateBadge } from '../runs/RunStateBadge';
import { useListRunsQuery } from '../runs/runsApi';
import { formatCredits } from '../usage/format';
import { useGetBalanceQuery } from '../usage/usageApi';
import { useListWorkflowsQuery } from '../workflows/workflowsApi';

/** How many workflows and runs the dashboard lists: the latest few; the areas list them all. */
const RECENT = 5;

/** A dashboard card with a title, its content and a link to the area that has the rest. */
function SummaryCard({ id, title, more, children }: { id: string; title: ReactNode; more: { to: string; label: ReactNode }; children: ReactNode }) {
  return (
    <Card.Root as="section" aria-labelledby={id} rounded="2xl" shadow="sm" borderColor="border.muted">
      <Card.Header>
        <Card.Title as="h2" id={id}>
          {title}
        </Card.Title>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
      <Card.Footer>
        <Button asChild variant="outline" size="sm">
          <LocaleLink to={more.to}>
            {more.label}
            <LuArrowRight aria-hidden />
          </LocaleLink>
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}

/** The latest workflows, runs and the credit balance: where the user left off. */
function RecentActivity() {
  const intl = useIntl();
  const { data: workflows, isLoading: workflowsLoading } = useListWorkflowsQuery({ page_size: RECENT, sort: 'updated_at', order: 'desc' });
  const { data: runs, isLoading: runsLoading } = useListRunsQuery({ page: 1, pageSize: RECENT });
  const { data: balance } = useGetBalanceQuery();
  const billingOn = balance?.billing_enabled ?? false;

  return (
    <SimpleGrid columns={{ base: 1, lg: billingOn ? 3 : 2 }} gap="6">
      <SummaryCard
        id="recent-workflows"
        title={<FormattedMessage id="dashboard.recentWorkflows.title" />}
        more={{ to: '/workflows', label: <FormattedMessage id="dashboard.recentWorkflows.all" /> }}
      >
        {workflowsLoading ? (
          <Skeleton h="20" />
        ) : !workflows?.items.length ? (
          <Text color="fg.muted">
            <FormattedMessage id="dashboard.recentWorkflows.empty" />
          </Text>
        ) : (
          <Stack as="ul" listStyleType="none" gap="2">
            {workflows.items.map((workflow) => (
              <Flex as="li" key={workflow.id} gap="3" align="baseline" justify="space-between">
                <Link asChild colorPalette="brand" color="colorPalette.fg" fontWeight="medium" truncate>
                  <LocaleLink to={`/workflows/${workflow.id}`}>{workflow.name}</LocaleLink>
                </Link>
                <Text as="span" textStyle="xs" color="fg.muted" flexShrink={0}>
                  <FormattedMessage id="dashboard.recentWorkflows.edited" values={{ when: <RelativeTime value={workflow.updated_at} /> }} />
                </Text>
              </Flex>
            ))}
          </Stack>
        )}
      </SummaryCard>

      <SummaryCard
        id="recent-runs"
        title={<FormattedMessage id="dashboard.recentRuns.title" />}
        more={{ to: '/executions', label: <FormattedMessage id="dashboard.recentRuns.all" /> }}
      >
        {runsLoading ? (
          <Skeleton h="20" />
        ) : !runs?.items.length ? (
          <Text color="fg.muted">
            <FormattedMessage id="dashboard.recentRuns.empty" />
          </Text>
        ) : (
          <Stack as="ul" listStyleType="none" gap="2">
            {runs.items.map((run) => (
              <Flex as="li" key={run.id} gap="2" align="center" wrap="wrap" data-testid="recent-run">
                <RunStateBadge state={run.state} reason={run.state_reason} size="sm" />
                <Link asChild colorPalette="brand" color="colorPalette.fg" fontWeight="medium" truncate flex="1" minW="0">
                  <LocaleLink to={runLink(run)}>{run.workflow_name}</LocaleLink>
                </Link>
                <Text as="span" textStyle="xs" color="fg.muted" flexShrink={0}>
                  {formatRunDuration(intl, run.duration_ms)} · <RelativeTime value={run.created_at} />
                </Text>
              </Flex>
            ))}
          </Stack>
        )}
      </SummaryCard>

      {billingOn && balance && (
        <SummaryCard
          id="dashboard-balance"
          title={<FormattedMessage id="dashboard.balance.title" />}
          more={{ to: '/billing', label: <FormattedMessage id="dashboard.balance.billing" /> }}
        >
          <Text fontSize="3xl" fontWeight="semibold" letterSpacing="-0.02em" data-testid="dashboard-balance">
            {intl.formatMessage({ id: 'billing.creditsAmount' }, { count: balance.balance, credits: formatCredits(intl, balance.balance) })}
          </Text>
        </SummaryCard>
      )}
    </SimpleGrid>
  );
}

/** The signed-in home: a greeting, recent workflows and runs, the credit balance, the account at a glance, and a way into every area. */
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

      <RecentActivity />

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
                    <Icon as={areaIcons[area.id]} boxSize="5" aria-hidden />
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
