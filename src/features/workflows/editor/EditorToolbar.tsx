import { Badge, Box, Button, Flex, HStack, IconButton, Input, Switch, Text, VisuallyHidden } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { LuArrowLeft, LuCopy, LuExternalLink, LuGlobe, LuHistory, LuInfo, LuPencil, LuRefreshCw } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import type { WorkflowOut } from '../../../../server/src/modules/workflows/workflows.schemas';
import { LocaleLink } from '../../../i18n/LocaleLink';
import { useLocalePath } from '../../../i18n/useLocale';
import { useCloneWorkflowMutation } from '../../clone/cloneApi';
import { UndoRedoControls } from '../../history/UndoRedoControls';
import { useStepCatalogue } from '../../stepInfos/stepInfosApi';
import { usePublishWorkflowMutation, useUpdateWorkflowMutation } from '../workflowsApi';
import { NAME_MAX_LENGTH, NameLimit } from '../NameLimit';
import { PublishDialog, type PublishMode } from './PublishDialog';
import { WorkflowDetailsDialog } from './WorkflowDetailsDialog';
import type { VersionedWrite as Write } from '../versioning';

/** The server's limit on a workflow's name (workflows.schemas). */

/** The workflow's name (click to rename), run, undo/redo, publish and clone. */
export function EditorToolbar({ workflow, write, runButton }: { workflow: WorkflowOut; write: Write; runButton?: ReactNode }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [editingName, setEditingName] = useState(false);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [name, setName] = useState(workflow.name);
  const [updateWorkflow] = useUpdateWorkflowMutation();
  const [publish, { isLoading: publishing }] = usePublishWorkflowMutation();
  const [cloneWorkflow, { isLoading: cloning }] = useCloneWorkflowMutation();
  const { byId: catalogue } = useStepCatalogue();
  const [publishMode, setPublishMode] = useState<PublishMode | null>(null);
  const published = workflow.visibility === 'published';
  // Publishing is not an edit, so the gallery's copy is current while the version has not moved.
  const outdated = published && workflow.published_version !== workflow.version;
  const outdatedHint =
    workflow.published_version === null
      ? intl.formatMessage({ id: 'editor.galleryOutdatedUnknown' }, { current: workflow.version })
      : intl.formatMessage({ id: 'editor.galleryOutdatedHint' }, { published: workflow.published_version, current: workflow.version });

  const confirmPublish = async () => {
    try {
      await write((version) => publish({ id: workflow.id, published: true, version }).unwrap());
      setPublishMode(null);
    } catch {
      // The notices say why (a newer version meanwhile: 409); the dialog stays for another try.
    }
  };

  const saveName = () => {
    setEditingName(false);
    const next = name.trim();
    if (!next || next === workflow.name) return setName(workflow.name);
    void write((version) => updateWorkflow({ id: workflow.id, version, changes: { name: next } }));
  };

  const clone = async () => {
    const result = await cloneWorkflow({ id: workflow.id });
    if ('data' in result && result.data) navigate(localePath(`/workflows/${result.data.id}`));
  };

  return (
    // Nothing here may cover anything else at any width (a published workflow with unpublished
    // edits at 1366 px lost its name and its badge covered the credit chip). Both parts wrap: the
    // controls go to their own row once the title part would get less than 16rem; inside the title
    // part the badges go below the name once the name would get less than 10rem. The name is cut
    // with an ellipsis (whole in its title) and keeps at least its first characters.
    <Flex
      align="center"
      columnGap={{ base: '2', md: '3' }}
      rowGap="2"
      px={{ base: '3', md: '4' }}
      py="2"
      borderBottomWidth="1px"
      borderColor="border.muted"
      bg="bg.panel"
      wrap="wrap"
      data-testid="editor-header"
    >
      <IconButton asChild variant="ghost" size="sm" aria-label={t('editor.back')}>
        <LocaleLink to="/workflows">
          <LuArrowLeft />
        </LocaleLink>
      </IconButton>
      {/* On a phone the name keeps its own row; the controls wrap below it. */}
      <Box flex="1 1 16rem" minW={{ base: 'calc(100% - 3rem)', md: '0' }} data-testid="editor-title">
        {editingName ? (
          <HStack gap="2" minW="0">
            <Input
              size="sm"
              fontWeight="semibold"
              fontSize="md"
              maxW="md"
              value={name}
              maxLength={NAME_MAX_LENGTH}
              autoFocus
              aria-label={t('editor.name')}
              aria-describedby="workflow-name-limit"
              onChange={(e) => setName(e.target.value)}
              onBlur={saveName}
              onKeyDown={(e) => {
                if (e.key === 'Enter') saveName();
                if (e.key === 'Escape') {
                  setName(workflow.name);
                  setEditingName(false);
                }
              }}
            />
            <NameLimit id="workflow-name-limit" length={name.length} flexShrink="0" />
          </HStack>
        ) : (
          <HStack gap="2" rowGap="1" minW="0" wrap="wrap">
            <Button
              variant="ghost"
              size="sm"
              px="2"
              fontWeight="semibold"
              fontSize="md"
              flexGrow="1"
              flexShrink="1"
              flexBasis="10rem"
              maxW="max-content"
              minW="0"
              title={workflow.name}
              onClick={() => {
                setName(workflow.name);
                setEditingName(true);
              }}
              aria-label={intl.formatMessage({ id: 'editor.rename' }, { name: workflow.name })}
              className="group"
            >
              <Text as="h1" truncate>
                {workflow.name}
              </Text>
              <LuPencil aria-hidden opacity={0.5} />
            </Button>
            <HStack gap="2" rowGap="1" minW="0" wrap="wrap" data-testid="editor-badges">
              <Badge variant="subtle" size="sm" flexShrink="0" display={{ base: 'none', md: 'inline-flex' }} title={t('editor.versionHint')}>
                v{workflow.version}
              </Badge>
              {published && (
                <Badge colorPalette="green" variant="subtle" size="sm" flexShrink="0" display={{ base: 'none', md: 'inline-flex' }}>
                  <LuGlobe aria-hidden />
                  {t('workflows.published')}
                </Badge>
              )}
              {outdated && (
                <Badge colorPalette="orange" variant="subtle" size="sm" maxW="full" title={outdatedHint} data-testid="gallery-outdated">
                  <LuHistory aria-hidden />
                  <Text as="span" truncate>
                    {t('editor.galleryOutdated')}
                  </Text>
                  <VisuallyHidden>{outdatedHint}</VisuallyHidden>
                </Badge>
              )}
            </HStack>
          </HStack>
        )}
      </Box>
      <HStack
        columnGap={{ base: '2', md: '3' }}
        rowGap="2"
        flex="0 1 auto"
        minW="0"
        wrap="wrap"
        ms={{ md: 'auto' }}
        justify={{ md: 'flex-end' }}
        data-testid="editor-controls"
      >
        {runButton}
        <UndoRedoControls workflowId={workflow.id} canUndo={workflow.can_undo} canRedo={workflow.can_redo} write={write} />
        {/* Turning it on first shows what will be public (on while that is open; Cancel turns it
            back off); turning it off unpublishes at once. */}
        <Switch.Root
          checked={published || publishMode === 'publish'}
          disabled={publishing}
          onCheckedChange={(d) => (d.checked ? setPublishMode('publish') : void write((version) => publish({ id: workflow.id, published: false, version })))}
          colorPalette="green"
          size="sm"
        >
          <Switch.HiddenInput />
          <Switch.Control />
          <Switch.Label textStyle="sm">{t('editor.publish')}</Switch.Label>
        </Switch.Root>
        {outdated && (
          <Button
            size="sm"
            variant="subtle"
            colorPalette="orange"
            aria-label={t('editor.updateGalleryCopy')}
            title={outdatedHint}
            onClick={() => setPublishMode('update')}
          >
            <LuRefreshCw aria-hidden />
            {/* Words only on the widest screens: the badge beside the name already says it. */}
            <Box as="span" display={{ base: 'none', '2xl': 'inline' }}>
              {t('editor.updateGalleryCopy')}
            </Box>
          </Button>
        )}
        {published && (
          <IconButton asChild size="sm" variant="ghost" aria-label={t('editor.viewInGallery')} title={t('editor.viewInGallery')}>
            <LocaleLink to={`/gallery/${workflow.id}`}>
              <LuExternalLink />
            </LocaleLink>
          </IconButton>
        )}
        <IconButton size="sm" variant="ghost" aria-label={t('editor.details.open')} title={t('editor.details.open')} onClick={() => setDetailsOpen(true)}>
          <LuInfo />
        </IconButton>
        <Button size="sm" variant="outline" loading={cloning} onClick={clone}>
          <LuCopy aria-hidden />
          <Box as="span" display={{ base: 'none', sm: 'inline' }}>
            {t('workflows.clone')}
          </Box>
        </Button>
      </HStack>
      <PublishDialog
        workflow={workflow}
        catalogue={catalogue}
        mode={publishMode ?? 'publish'}
        open={publishMode !== null}
        loading={publishing}
        onConfirm={() => void confirmPublish()}
        onCancel={() => setPublishMode(null)}
      />
      <WorkflowDetailsDialog
        key={`${workflow.id}:${workflow.version}`}
        workflow={workflow}
        write={write}
        open={detailsOpen}
        onClose={() => setDetailsOpen(false)}
      />
    </Flex>
  );
}
