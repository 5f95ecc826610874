import {
  Badge,
  Button,
  Card,
  Flex,
  Heading,
  HStack,
  Icon,
  IconButton,
  Input,
  InputGroup,
  NativeSelect,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { memo, useState } from 'react';
import { LuCopy, LuGlobe, LuLayers, LuPlus, LuSearch, LuTrash2, LuWorkflow } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import type { WorkflowSummaryOut } from '../../../server/src/modules/workflows/workflows.schemas';
import { usePageTitle } from '../../app/usePageTitle';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { RelativeTime } from '../../components/RelativeTime';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { LocaleLink } from '../../i18n/LocaleLink';
import { useLocalePath } from '../../i18n/useLocale';
import { useCloneWorkflowMutation } from '../clone/cloneApi';
import { CreateWorkflowDialog } from './CreateWorkflowDialog';
import { EmptyListState, PagedList } from '../../components/DataTable';
import { StartFromFile } from './StartFromFile';
import { useDeleteWorkflowMutation, useListWorkflowsQuery } from './workflowsApi';

const PAGE_SIZE = 24;
type Sort = 'updated_at' | 'created_at' | 'name';
const SORTS: Sort[] = ['updated_at', 'created_at', 'name'];

const WorkflowCard = memo(function WorkflowCard({
  workflow,
  onDelete,
  onClone,
  cloning,
}: {
  workflow: WorkflowSummaryOut;
  onDelete: (w: WorkflowSummaryOut) => void;
  onClone: (w: WorkflowSummaryOut) => void;
  cloning: boolean;
}) {
  const intl = useIntl();
  return (
    <Card.Root
      as="li"
      rounded="2xl"
      shadow="xs"
      borderColor="border.muted"
      _hover={{ shadow: 'md', borderColor: 'brand.emphasized' }}
      transition="box-shadow 0.2s, border-color 0.2s"
      position="relative"
    >
      <Card.Body gap="3" pb="3">
        <Flex align="flex-start" gap="3">
          <Flex boxSize="10" flexShrink="0" rounded="xl" align="center" justify="center" bg="brand.subtle" color="brand.fg">
            <Icon as={LuWorkflow} boxSize="5" aria-hidden />
          </Flex>
          <Stack gap="0.5" minW="0" flex="1">
            <Card.Title
              as="h2"
              fontSize="md"
              lineClamp={1}
              css={{ '& a::after': { content: '""', position: 'absolute', inset: 0, borderRadius: 'inherit' }, '& a:focus-visible': { outline: 'none' } }}
            >
              {/* The whole card opens the editor; the action buttons sit above this link. */}
              <LocaleLink to={`/workflows/${workflow.id}`}>{workflow.name}</LocaleLink>
            </Card.Title>
            <Text textStyle="xs" color="fg.muted">
              <FormattedMessage id="workflows.updated" values={{ when: <RelativeTime value={workflow.updated_at} /> }} />
            </Text>
          </Stack>
          {workflow.visibility === 'published' && (
            <Badge colorPalette="green" variant="subtle" rounded="full" flexShrink="0">
              <LuGlobe aria-hidden />
              <FormattedMessage id="workflows.published" />
            </Badge>
          )}
        </Flex>
        <Text color="fg.muted" textStyle="sm" lineClamp={2} minH="2lh">
          {workflow.description || intl.formatMessage({ id: 'workflows.noDescription' })}
        </Text>
        {workflow.tags.length > 0 && (
          <HStack gap="1.5" wrap="wrap">
            {workflow.tags.map((tag) => (
              <Badge key={tag} variant="outline" rounded="full" fontWeight="normal">
                {tag}
              </Badge>
            ))}
          </HStack>
        )}
      </Card.Body>
      <Card.Footer borderTopWidth="1px" borderColor="border.muted" py="2" px="4" justifyContent="space-between">
        <HStack gap="1.5" color="fg.muted" textStyle="sm">
          <LuLayers aria-hidden />
          <FormattedMessage id="workflows.stepCount" values={{ count: workflow.step_count }} />
        </HStack>
        <HStack gap="0" position="relative" zIndex="1">
          <IconButton
            variant="ghost"
            size="sm"
            loading={cloning}
            aria-label={intl.formatMessage({ id: 'workflows.cloneNamed' }, { name: workflow.name })}
            title={intl.formatMessage({ id: 'workflows.clone' })}
            onClick={() => onClone(workflow)}
          >
            <LuCopy />
          </IconButton>
          <IconButton
            variant="ghost"
            size="sm"
            colorPalette="red"
            aria-label={intl.formatMessage({ id: 'workflows.deleteNamed' }, { name: workflow.name })}
            title={intl.formatMessage({ id: 'workflows.delete' })}
            onClick={() => onDelete(workflow)}
          >
            <LuTrash2 />
          </IconButton>
        </HStack>
      </Card.Footer>
    </Card.Root>
  );
});

/** `/workflows`: my workflows — search, sort, create, clone, delete, pages. */
export function WorkflowsPage() {
  usePageTitle('nav.workflows');
  const intl = useIntl();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sort>('updated_at');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [toDelete, setToDelete] = useState<WorkflowSummaryOut | null>(null);
  const q = useDebouncedValue(search.trim(), 300);
  const { data, isLoading, isFetching } = useListWorkflowsQuery({
    q: q || undefined,
    sort,
    order: sort === 'name' ? 'asc' : 'desc',
    page,
    page_size: PAGE_SIZE,
  });
  const [deleteWorkflow, { isLoading: deleting }] = useDeleteWorkflowMutation();
  const [cloneWorkflow, { isLoading: cloningAny, originalArgs: cloneArgs }] = useCloneWorkflowMutation();
  const t = (id: string) => intl.formatMessage({ id });

  const confirmDelete = async () => {
    if (!toDelete) return;
    const result = await deleteWorkflow({ id: toDelete.id, version: toDelete.version });
    if ('data' in result) {
      setToDelete(null);
      if (data && data.items.length === 1 && page > 1) setPage(page - 1);
    }
  };

  const onClone = async (workflow: WorkflowSummaryOut) => {
    const result = await cloneWorkflow({ id: workflow.id });
    if ('data' in result && result.data) navigate(localePath(`/workflows/${result.data.id}`));
  };

  const empty = data && data.total === 0;
  return (
    <Stack gap="8">
      <Flex gap="4" align={{ base: 'stretch', sm: 'flex-end' }} direction={{ base: 'column', sm: 'row' }}>
        <Stack gap="1" flex="1">
          <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
            <FormattedMessage id="nav.workflows" />
          </Heading>
          <Text color="fg.muted" fontSize="lg">
            <FormattedMessage id="workflows.subtitle" />
          </Text>
        </Stack>
        <Button colorPalette="brand" size="md" onClick={() => setCreating(true)}>
          <LuPlus aria-hidden />
          <FormattedMessage id="workflows.new" />
        </Button>
      </Flex>

      <StartFromFile />

      <Flex gap="3" direction={{ base: 'column', sm: 'row' }}>
        <InputGroup flex="1" startElement={<LuSearch aria-hidden />}>
          <Input
            type="search"
            bg="bg.panel"
            aria-label={t('workflows.search')}
            placeholder={t('workflows.searchPlaceholder')}
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
          />
        </InputGroup>
        <NativeSelect.Root width={{ base: 'full', sm: '56' }}>
          <NativeSelect.Field
            bg="bg.panel"
            aria-label={t('workflows.sort')}
            value={sort}
            onChange={(e) => {
              setSort(e.target.value as Sort);
              setPage(1);
            }}
          >
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`workflows.sort.${s}`)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Flex>

      <PagedList
        isLoading={isLoading}
        loading={
          <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h="44" rounded="2xl" />
            ))}
          </SimpleGrid>
        }
        isEmpty={!!empty}
        empty={
          <EmptyListState
            framed
            py="12"
            icon={q ? <LuSearch /> : <LuWorkflow />}
            iconColor="brand.fg"
            title={q ? t('workflows.noMatches') : t('workflows.empty.title')}
            description={q ? t('workflows.noMatchesHint') : t('workflows.empty.body')}
            action={
              !q && (
                <Button colorPalette="brand" onClick={() => setCreating(true)}>
                  <LuPlus aria-hidden />
                  <FormattedMessage id="workflows.empty.cta" />
                </Button>
              )
            }
          />
        }
        isFetching={isFetching}
        gap="8"
        pagination={data && { page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage }}
      >
        <SimpleGrid as="ul" listStyleType="none" columns={{ base: 1, md: 2, xl: 3 }} gap="4" aria-label={t('workflows.listLabel')}>
          {data?.items.map((w) => (
            <WorkflowCard key={w.id} workflow={w} onDelete={setToDelete} onClone={onClone} cloning={cloningAny && cloneArgs?.id === w.id} />
          ))}
        </SimpleGrid>
      </PagedList>

      <CreateWorkflowDialog open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={toDelete !== null}
        title={t('workflows.deleteConfirm.title')}
        body={intl.formatMessage({ id: 'workflows.deleteConfirm.body' }, { name: toDelete?.name ?? '' })}
        confirmLabel={t('workflows.delete')}
        destructive
        loading={deleting}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </Stack>
  );
}
