import { Avatar, Badge, Box, Button, Card, Center, DataList, Flex, Heading, HStack, Icon, Skeleton, Stack, Text } from '@chakra-ui/react';
import { ReactFlowProvider } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LuArrowLeft, LuCopy, LuLayers, LuLock, LuLogIn, LuVariable } from 'react-icons/lu';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import { useAppSelector } from '../../app/hooks';
import { initials } from '../../components/initials';
import { RelativeTime } from '../../components/RelativeTime';
import { LocaleLink } from '../../i18n/LocaleLink';
import { useLocalePath } from '../../i18n/useLocale';
import { selectAuth } from '../auth/authSlice';
import { useCloneWorkflowMutation } from '../clone/cloneApi';
import { optionLabel } from '../steps/optionLabel';
import { lookOf } from '../workflows/editor/categories';
import type { NodeTypeInfo } from '../workflows/editor/graph';
import { StepCanvas } from '../workflows/editor/StepCanvas';
import { useGetPublicWorkflowQuery, type PublicWorkflowDetail } from '../workflows/workflowsApi';
import { TagBadges } from '../../components/TagBadges';

type PublicStep = PublicWorkflowDetail['steps'][number];
type PublicParam = PublicStep['params'][number];

/** The canvas draws StepOut; the preview's steps become such, with nothing to edit. */
function canvasOf(workflow: PublicWorkflowDetail): { steps: StepOut[]; types: Map<string, NodeTypeInfo> } {
  const types = new Map<string, NodeTypeInfo>();
  for (const step of workflow.steps) {
    // Sources take no input (no handle on top); nothing is "missing" in a preview.
    if (step.category)
      types.set(step.step_type, { name: step.type_name, category: step.category, params: [], inputs: { min: 0, max: step.category === 'source' ? 0 : null } });
  }
  const steps = workflow.steps.map((s) => ({
    id: s.id,
    workflow_id: workflow.id,
    step_type: s.step_type,
    name: s.name,
    param_inputs: {},
    inputs: s.inputs,
    position: s.position,
  }));
  return { steps, types };
}

function ParamValue({ param }: { param: PublicParam }) {
  const intl = useIntl();
  if (param.withheld) {
    return (
      <HStack gap="1.5" color="fg.muted" fontStyle="italic">
        <LuLock aria-hidden />
        <Text>{intl.formatMessage({ id: 'gallery.preview.withheld' })}</Text>
      </HStack>
    );
  }
  const { value } = param;
  let text: string;
  if (value === null || value === undefined || value === '') text = '—';
  else if (param.type === 'enum' && typeof value === 'string') text = optionLabel(intl, value);
  else if (typeof value === 'boolean') text = intl.formatMessage({ id: value ? 'gallery.preview.yes' : 'gallery.preview.no' });
  else if (Array.isArray(value) && value.every((v) => typeof v !== 'object')) text = value.join(', ');
  else if (typeof value === 'object') text = JSON.stringify(value, null, 2);
  else text = String(value);
  return (
    <Text whiteSpace="pre-wrap" wordBreak="break-word" fontFamily={typeof value === 'object' && value !== null ? 'mono' : undefined}>
      {text}
    </Text>
  );
}

/** One step with its settings, read-only. */
function StepCard({ step, reads, selected }: { step: PublicStep; reads: string[]; selected: boolean }) {
  const intl = useIntl();
  const look = lookOf(step.category ?? undefined);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [selected]);
  return (
    <Card.Root
      as="li"
      ref={ref}
      size="sm"
      rounded="xl"
      colorPalette={look.palette}
      borderColor={selected ? 'brand.solid' : 'border.muted'}
      shadow={selected ? '0 0 0 2px var(--chakra-colors-brand-muted)' : undefined}
      aria-label={step.name}
      aria-current={selected || undefined}
    >
      <Card.Body gap="3">
        <HStack gap="2.5" align="center">
          <Flex boxSize="8" flexShrink="0" rounded="lg" align="center" justify="center" bg="colorPalette.subtle" color="colorPalette.fg">
            <Icon as={look.icon} boxSize="4" aria-hidden />
          </Flex>
          <Box minW="0">
            <Heading as="h3" textStyle="sm" fontWeight="semibold" wordBreak="break-word">
              {step.name}
            </Heading>
            <Text textStyle="xs" color="fg.muted">
              {step.type_name}
            </Text>
          </Box>
        </HStack>
        {reads.length > 0 && (
          <Text textStyle="xs" color="fg.muted">
            {intl.formatMessage({ id: 'gallery.preview.reads' }, { steps: intl.formatList(reads, { type: 'conjunction' }) })}
          </Text>
        )}
        {step.params.length > 0 ? (
          <DataList.Root orientation="vertical" size="sm" gap="2">
            {step.params.map((param) => (
              <DataList.Item key={param.name}>
                <DataList.ItemLabel>{param.label}</DataList.ItemLabel>
                <DataList.ItemValue>
                  <ParamValue param={param} />
                </DataList.ItemValue>
              </DataList.Item>
            ))}
          </DataList.Root>
        ) : (
          <Text textStyle="xs" color="fg.muted">
            {intl.formatMessage({ id: 'gallery.preview.noSettings' })}
          </Text>
        )}
      </Card.Body>
    </Card.Root>
  );
}

/**
 * `/gallery/:workflowId`: a published workflow as it was published, for everyone: its graph
 * (read-only) and each step's settings, then Clone, or Sign in to clone, which comes back here.
 */
export function GalleryPreviewPage() {
  const { workflowId = '' } = useParams();
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const { pathname } = useLocation();
  const { isAuthenticated } = useAppSelector(selectAuth);
  const { data: workflow, isLoading, isError } = useGetPublicWorkflowQuery(workflowId);
  const [cloneWorkflow, { isLoading: cloning }] = useCloneWorkflowMutation();
  const [selectedIds, setSelectedIds] = useState<string[]>([]);
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  const onSelect = useCallback(
    (ids: string[]) => setSelectedIds((prev) => (prev.length === ids.length && prev.every((id, i) => id === ids[i]) ? prev : ids)),
    [],
  );
  const canvas = useMemo(() => (workflow ? canvasOf(workflow) : undefined), [workflow]);

  useEffect(() => {
    const app = intl.formatMessage({ id: 'app.name' });
    document.title = workflow
      ? `${workflow.name} · ${intl.formatMessage({ id: 'nav.gallery' })} · ${app}`
      : `${intl.formatMessage({ id: 'nav.gallery' })} · ${app}`;
  }, [workflow, intl]);

  const clone = async () => {
    const result = await cloneWorkflow({ id: workflowId });
    if ('data' in result && result.data) navigate(localePath(`/workflows/${result.data.id}`));
  };

  const back = (
    <Button asChild variant="ghost" size="sm" alignSelf="flex-start" ms="-2">
      <LocaleLink to="/gallery">
        <LuArrowLeft aria-hidden />
        {t('gallery.preview.back')}
      </LocaleLink>
    </Button>
  );

  if (isLoading) {
    return (
      <Stack gap="6">
        {back}
        <Skeleton h="40" rounded="2xl" />
        <Skeleton h="96" rounded="2xl" />
      </Stack>
    );
  }
  if (isError || !workflow || !canvas) {
    return (
      <Stack gap="6">
        {back}
        <Center py="16">
          <Stack align="center" gap="3" textAlign="center">
            <Heading as="h1" size="lg">
              {t('gallery.preview.notFound')}
            </Heading>
            <Text color="fg.muted">{t('gallery.preview.notFoundHint')}</Text>
          </Stack>
        </Center>
      </Stack>
    );
  }

  const nameOf = new Map(workflow.steps.map((s) => [s.id, s.name]));

  return (
    <Stack gap="6">
      {back}
      <Card.Root rounded="2xl" shadow="xs" borderColor="border.muted" as="section" aria-labelledby="gallery-preview-title">
        <Card.Body gap="4">
          <Flex gap="4" justify="space-between" align={{ base: 'stretch', md: 'flex-start' }} direction={{ base: 'column', md: 'row' }}>
            <Stack gap="3" minW="0">
              <Heading as="h1" id="gallery-preview-title" size={{ base: 'xl', md: '2xl' }} letterSpacing="-0.02em" wordBreak="break-word">
                {workflow.name}
              </Heading>
              <HStack gap="2" color="fg.muted" textStyle="sm" wrap="wrap">
                <Avatar.Root size="2xs" colorPalette="brand">
                  <Avatar.Fallback>{initials(workflow.author_name)}</Avatar.Fallback>
                </Avatar.Root>
                <Text>{t('gallery.by', { author: workflow.author_name })}</Text>
                <Text aria-hidden>·</Text>
                <Text>
                  <FormattedMessage id="gallery.preview.publishedAgo" values={{ time: <RelativeTime value={workflow.published_at} /> }} />
                </Text>
              </HStack>
            </Stack>
            <Box flexShrink="0">
              {isAuthenticated ? (
                <Button colorPalette="brand" loading={cloning} onClick={() => void clone()} aria-label={t('gallery.cloneNamed', { name: workflow.name })}>
                  <LuCopy aria-hidden />
                  {t('gallery.clone')}
                </Button>
              ) : (
                <Button asChild variant="outline">
                  <LocaleLink to="/login" state={{ from: pathname }}>
                    <LuLogIn aria-hidden />
                    {t('gallery.signInToClone')}
                  </LocaleLink>
                </Button>
              )}
            </Box>
          </Flex>
          <Text color={workflow.description ? 'fg' : 'fg.muted'} whiteSpace="pre-wrap" wordBreak="break-word">
            {workflow.description || t('workflows.noDescription')}
          </Text>
          <HStack gap="4" wrap="wrap" color="fg.muted" textStyle="sm">
            <HStack gap="1">
              <LuLayers aria-hidden />
              {t('workflows.stepCount', { count: workflow.step_count })}
            </HStack>
            <HStack gap="1">
              <LuCopy aria-hidden />
              {t('gallery.cloneCount', { count: workflow.clone_count })}
            </HStack>
            <TagBadges tags={workflow.tags} />
          </HStack>
          <HStack gap="2" textStyle="xs" color="fg.muted">
            <LuLock aria-hidden />
            <Text>{t('gallery.preview.privateNote')}</Text>
          </HStack>
        </Card.Body>
      </Card.Root>

      <Flex gap="4" direction={{ base: 'column', lg: 'row' }} align="stretch">
        <Box
          flex={{ base: 'none', lg: '1' }}
          minW="0"
          h={{ base: '24rem', lg: '36rem' }}
          bg="canvas"
          rounded="2xl"
          borderWidth="1px"
          borderColor="border.muted"
          overflow="hidden"
          position="relative"
        >
          <ReactFlowProvider>
            <StepCanvas readOnly steps={canvas.steps} catalogue={canvas.types} selected={selected} onSelect={onSelect} />
          </ReactFlowProvider>
          {workflow.steps.length === 0 && (
            <Center position="absolute" inset="0" pointerEvents="none">
              <Text color="fg.muted">{t('gallery.preview.noSteps')}</Text>
            </Center>
          )}
        </Box>
        <Stack w={{ base: 'full', lg: '96' }} flexShrink="0" gap="3" maxH={{ lg: '36rem' }} overflowY={{ lg: 'auto' }} pe={{ lg: '1' }}>
          <Heading as="h2" size="md" id="gallery-preview-steps">
            {t('gallery.preview.steps')}
          </Heading>
          <Stack as="ol" gap="3" listStyleType="none" aria-labelledby="gallery-preview-steps">
            {workflow.steps.map((step) => (
              <StepCard
                key={step.id}
                step={step}
                reads={step.inputs.flatMap((id) => (nameOf.has(id) ? [nameOf.get(id)!] : []))}
                selected={selected.has(step.id)}
              />
            ))}
          </Stack>
          {workflow.variables.length > 0 && (
            <Stack gap="2" pt="2">
              <Heading as="h2" size="sm">
                {t('gallery.preview.variables')}
              </Heading>
              <Text textStyle="xs" color="fg.muted">
                {t('gallery.preview.variablesNote')}
              </Text>
              <Stack as="ul" gap="1" listStyleType="none">
                {workflow.variables.map((v) => (
                  <HStack as="li" key={v.name} gap="2" textStyle="sm">
                    <LuVariable aria-hidden />
                    <Text fontFamily="mono">{v.name}</Text>
                    <Badge size="sm" variant="subtle">
                      {t(`variables.type.${v.type}`)}
                    </Badge>
                  </HStack>
                ))}
              </Stack>
            </Stack>
          )}
        </Stack>
      </Flex>
    </Stack>
  );
}
