import { Avatar, Badge, Box, Button, Card, Heading, HStack, Input, InputGroup, Link, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { memo, useState } from 'react';
import { LuCopy, LuEye, LuLayers, LuLogIn, LuSearch, LuSparkles } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAppSelector } from '../../app/hooks';
import { usePageTitle } from '../../app/usePageTitle';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { initials } from '../../components/initials';
import { LocaleLink } from '../../i18n/LocaleLink';
import { useLocalePath } from '../../i18n/useLocale';
import { selectAuth } from '../auth/authSlice';
import { useCloneWorkflowMutation } from '../clone/cloneApi';
import { EmptyListState, PagedList } from '../../components/DataTable';
import { useListPublicWorkflowsQuery, type PublicWorkflow } from '../workflows/workflowsApi';
import { TagBadges } from '../../components/TagBadges';

const PAGE_SIZE = 24;

const GalleryCard = memo(function GalleryCard({
  workflow,
  signedIn,
  cloning,
  onClone,
}: {
  workflow: PublicWorkflow;
  signedIn: boolean;
  cloning: boolean;
  onClone: (w: PublicWorkflow) => void;
}) {
  const intl = useIntl();
  const { pathname } = useLocation();
  return (
    <Card.Root as="li" rounded="2xl" shadow="xs" borderColor="border.muted" _hover={{ shadow: 'md' }} transition="box-shadow 0.2s" aria-label={workflow.name}>
      <Card.Body gap="3">
        <Card.Title as="h2" fontSize="lg" lineClamp={1}>
          <Link asChild color="fg" _hover={{ color: 'brand.fg', textDecoration: 'underline' }}>
            <LocaleLink to={`/gallery/${workflow.id}`}>{workflow.name}</LocaleLink>
          </Link>
        </Card.Title>
        <HStack gap="2">
          <Avatar.Root size="2xs" colorPalette="brand">
            <Avatar.Fallback>{initials(workflow.author_name)}</Avatar.Fallback>
          </Avatar.Root>
          <Text textStyle="sm" color="fg.muted" truncate>
            <FormattedMessage id="gallery.by" values={{ author: workflow.author_name }} />
          </Text>
        </HStack>
        <Text color="fg.muted" textStyle="sm" lineClamp={3} minH="3lh">
          {workflow.description || intl.formatMessage({ id: 'workflows.noDescription' })}
        </Text>
        {workflow.tags.length > 0 && (
          <HStack gap="1.5" wrap="wrap">
            <TagBadges tags={workflow.tags} />
          </HStack>
        )}
      </Card.Body>
      <Card.Footer borderTopWidth="1px" borderColor="border.muted" py="3" justifyContent="space-between" gap="3" flexWrap="wrap">
        <HStack gap="4" color="fg.muted" textStyle="sm">
          <HStack gap="1">
            <LuLayers aria-hidden />
            <FormattedMessage id="workflows.stepCount" values={{ count: workflow.step_count }} />
          </HStack>
          <HStack gap="1">
            <LuCopy aria-hidden />
            <FormattedMessage id="gallery.cloneCount" values={{ count: workflow.clone_count }} />
          </HStack>
        </HStack>
        <HStack gap="2">
          <Button asChild size="sm" variant="ghost" aria-label={intl.formatMessage({ id: 'gallery.previewNamed' }, { name: workflow.name })}>
            <LocaleLink to={`/gallery/${workflow.id}`}>
              <LuEye aria-hidden />
              <FormattedMessage id="gallery.preview" />
            </LocaleLink>
          </Button>
          {signedIn ? (
            <Button
              size="sm"
              colorPalette="brand"
              variant="surface"
              loading={cloning}
              aria-label={intl.formatMessage({ id: 'gallery.cloneNamed' }, { name: workflow.name })}
              onClick={() => onClone(workflow)}
            >
              <LuCopy aria-hidden />
              <FormattedMessage id="gallery.clone" />
            </Button>
          ) : (
            <Button asChild size="sm" variant="outline">
              <LocaleLink to="/login" state={{ from: pathname }}>
                <LuLogIn aria-hidden />
                <FormattedMessage id="gallery.signInToClone" />
              </LocaleLink>
            </Button>
          )}
        </HStack>
      </Card.Footer>
    </Card.Root>
  );
});

/** `/gallery`: published workflows, for everyone; signed-in people can clone one into their account. */
export function GalleryPage() {
  usePageTitle('nav.gallery');
  const intl = useIntl();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const { isAuthenticated } = useAppSelector(selectAuth);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebouncedValue(search.trim(), 300);
  const { data, isLoading, isFetching } = useListPublicWorkflowsQuery({ q: q || undefined, page, page_size: PAGE_SIZE });
  const [cloneWorkflow, { isLoading: cloning, originalArgs }] = useCloneWorkflowMutation();

  const onClone = async (workflow: PublicWorkflow) => {
    const result = await cloneWorkflow({ id: workflow.id });
    if ('data' in result && result.data) navigate(localePath(`/workflows/${result.data.id}`));
  };

  return (
    <Stack gap="8">
      <Box
        rounded="3xl"
        px={{ base: '6', md: '10' }}
        py={{ base: '8', md: '12' }}
        bgImage={{
          _light: 'radial-gradient(700px 300px at 10% 0%, #e6defe 0%, transparent 70%), radial-gradient(600px 300px at 100% 100%, #dcefff 0%, transparent 70%)',
          _dark:
            'radial-gradient(700px 300px at 10% 0%, rgba(118,80,245,0.28) 0%, transparent 70%), radial-gradient(600px 300px at 100% 100%, rgba(56,189,248,0.12) 0%, transparent 70%)',
        }}
        bg="bg.panel"
        borderWidth="1px"
        borderColor="border.muted"
      >
        <Stack gap="5" maxW="2xl">
          <Badge alignSelf="flex-start" colorPalette="brand" variant="surface" rounded="full" px="3" py="1">
            <LuSparkles aria-hidden />
            <FormattedMessage id="gallery.badge" />
          </Badge>
          <Heading as="h1" size={{ base: '2xl', md: '4xl' }} letterSpacing="-0.03em">
            <FormattedMessage id="nav.gallery" />
          </Heading>
          <Text color="fg.muted" fontSize={{ base: 'md', md: 'lg' }}>
            <FormattedMessage id="gallery.subtitle" />
          </Text>
          <InputGroup startElement={<LuSearch aria-hidden />}>
            <Input
              type="search"
              size="lg"
              bg="bg"
              aria-label={intl.formatMessage({ id: 'gallery.search' })}
              placeholder={intl.formatMessage({ id: 'gallery.searchPlaceholder' })}
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setPage(1);
              }}
            />
          </InputGroup>
        </Stack>
      </Box>

      <PagedList
        isLoading={isLoading}
        loading={
          <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h="52" rounded="2xl" />
            ))}
          </SimpleGrid>
        }
        isEmpty={data?.total === 0}
        empty={
          <EmptyListState
            icon={<LuSearch />}
            title={intl.formatMessage({ id: q ? 'gallery.noMatches' : 'gallery.empty' })}
            description={intl.formatMessage({ id: q ? 'workflows.noMatchesHint' : 'gallery.emptyHint' })}
          />
        }
        isFetching={isFetching}
        gap="6"
        pagination={data && { page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage }}
      >
        <SimpleGrid as="ul" listStyleType="none" columns={{ base: 1, md: 2, xl: 3 }} gap="4" aria-label={intl.formatMessage({ id: 'gallery.listLabel' })}>
          {data?.items.map((w) => (
            <GalleryCard key={w.id} workflow={w} signedIn={isAuthenticated} cloning={cloning && originalArgs?.id === w.id} onClone={onClone} />
          ))}
        </SimpleGrid>
      </PagedList>
    </Stack>
  );
}
