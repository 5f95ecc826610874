import { Box, Button, Center, Flex, Heading, Spinner, Stack, Tabs, Text } from '@chakra-ui/react';
import { ReactFlowProvider, type Edge, type XYPosition } from '@xyflow/react';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LuMousePointerClick, LuTrash2 } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import { useParams, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { LocaleLink } from '../../../i18n/LocaleLink';
import { useCloneStepMutation } from '../../clone/cloneApi';
import { ChatPanel } from '../../conversations/ChatPanel';
import { HistoryPanel } from '../../history/HistoryPanel';
import { RunWorkflowButton, StepRunSection } from '../../runs/RunButtons';
import { RunPanel } from '../../runs/RunPanel';
import { useAutoPreview } from '../../runs/useAutoPreview';
import { useEditorRun } from '../../runs/useLiveRun';
import { useDeleteStepsMutation } from '../../stepConnections/stepConnectionsApi';
import { CataloguePanel } from '../../stepInfos/CataloguePanel';
import { useStepCatalogue } from '../../stepInfos/stepInfosApi';
import { draftsOfStepsDropped, selectDraftedStepIds } from '../../steps/stepDrafts';
import { StepData } from '../../steps/StepData';
import { StepInspector } from '../../steps/StepInspector';
import { useAddStepFromTemplateMutation, useAddStepMutation, useUpdateStepMutation } from '../../steps/stepsApi';
import { isTypingTarget } from '../../history/UndoRedoControls';
import { VariablesPanel } from '../../variables/VariablesPanel';
import { patchWorkflow } from '../cacheUpdates';
import { useGetWorkflowQuery } from '../workflowsApi';
import { DeleteStepsDialog } from './DeleteStepsDialog';
import { EditorToolbar } from './EditorToolbar';
import { inputsAfterConnect, stepsNotReady } from './graph';
import { freeSpot, tidyMoves } from './layout';
import { ShortcutSheet } from './ShortcutSheet';
import { StepCanvas } from './StepCanvas';
import { useWorkflowWrites } from './useWorkflowWrites';

const MOVE_SAVE_DELAY_MS = 400;
const sameIds = (a: string[], b: string[]) => a.length === b.length && a.every((id, i) => id === b[i]);
/** No steps yet (the workflow still loading): one empty list, the same on every render. */
const NO_STEPS: StepOut[] = [];

/** `/workflows/:id`: the canvas, the catalogue / variables / history panels, the selected step. */
export function WorkflowEditorPage() {
  const { workflowId = '' } = useParams();
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const dispatch = useAppDispatch();
  const { data: workflow, isLoading, isError, isFetching } = useGetWorkflowQuery(workflowId);
  const { byId: catalogue } = useStepCatalogue();
  const { write } = useWorkflowWrites(workflowId);
  const [addFromTemplate] = useAddStepFromTemplateMutation();
  const [updateStep] = useUpdateStepMutation();
  const [addStepMutation] = useAddStepMutation();
  const copied = useRef<StepOut[]>([]);
  const [deleteSteps] = useDeleteStepsMutation();
  const [cloneStep] = useCloneStepMutation();
  const [searchParams] = useSearchParams();
  // A link may name the step to open (a dataset page's "the step that made it": `?step=<id>`).
  const [selectedIds, setSelectedIds] = useState<string[]>(() => {
    const linked = searchParams.get('step');
    return linked ? [linked] : [];
  });
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  const pendingMoves = useRef(new Map<string, XYPosition>());
  const moveTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const editorRun = useEditorRun(workflowId, searchParams.get('run'));
  const { pick: pickRun } = editorRun;
  const onRunStarted = useCallback((run: { id: string }) => pickRun(run.id), [pickRun]);

  useEffect(() => {
    if (workflow) document.title = `${workflow.name} · ${intl.formatMessage({ id: 'app.name' })}`;
  }, [workflow?.name, intl]); // eslint-disable-line react-hooks/exhaustive-deps

  // Latest steps for callbacks, without making every callback change on every edit.
  const stepsRef = useRef(workflow?.steps ?? []);
  stepsRef.current = workflow?.steps ?? [];
  const catalogueRef = useRef(catalogue);
  catalogueRef.current = catalogue;
  const selectedRef = useRef(selectedIds);
  selectedRef.current = selectedIds;

  // A selected step that is gone (undone, restored away, deleted elsewhere) is let go of, so a
  // redo does not bring it back selected and nothing is asked about it.
  useEffect(() => {
    if (!workflow) return;
    setSelectedIds((prev) => {
      const kept = prev.filter((id) => workflow.steps.some((s) => s.id === id));
      return kept.length === prev.length ? prev : kept;
    });
  }, [workflow]);

  // Steps with unsaved settings (drafts), marked on the canvas. A draft of a step that is gone is
  // dropped, once the workflow is fresh from the server (a cached copy may predate a new step).
  const draftedIds = useAppSelector((state) => selectDraftedStepIds(state, workflowId));
  const drafted = useMemo(() => new Set(draftedIds ? draftedIds.split(' ') : []), [draftedIds]);
  useEffect(() => {
    if (!workflow || isFetching) return;
    const gone = [...drafted].filter((id) => !workflow.steps.some((s) => s.id === id));
    if (gone.length) dispatch(draftsOfStepsDropped({ workflowId, stepIds: gone }));
  }, [dispatch, drafted, isFetching, workflow, workflowId]);

  const onSelect = useCallback((ids: string[]) => setSelectedIds((prev) => (sameIds(prev, ids) ? prev : ids)), []);
  const showStep = useCallback((id: string) => setSelectedIds([id]), []);
  // The run panel marks step runs whose step has left the workflow since the run.
  const stepIds = useMemo(() => new Set((workflow?.steps ?? []).map((s) => s.id)), [workflow?.steps]);
  // Steps needing settings or inputs: Run workflow says which instead of asking the server to run.
  const notReady = useMemo(() => stepsNotReady(workflow?.steps ?? [], catalogue), [workflow?.steps, catalogue]);
  // A step opened whose input never ran: its input is previewed on a sample, when that is free.
  useAutoPreview({
    workflowId,
    version: workflow?.version ?? 0,
    step: selectedIds.length === 1 ? workflow?.steps.find((s) => s.id === selectedIds[0]) : undefined,
    steps: workflow?.steps ?? NO_STEPS,
    notReady,
    busy: editorRun.busy,
    onStarted: onRunStarted,
  });

  const addStep = useCallback(
    async (stepInfoId: string, position?: XYPosition) => {
      const steps = stepsRef.current;
      const after = !position && selectedRef.current.length === 1 ? steps.find((s) => s.id === selectedRef.current[0]) : undefined;
      let wanted = position;
      if (!wanted && after) wanted = { x: after.position.x, y: after.position.y + 140 };
      if (!wanted) {
        const lowest = steps.reduce<XYPosition | null>((low, s) => (!low || s.position.y > low.y ? s.position : low), null);
        wanted = lowest ? { x: lowest.x, y: lowest.y + 140 } : { x: 0, y: 0 };
      }
      // Never on top of another step (inserted mid-chain, the spot below is the next step's).
      const at = freeSpot(steps, wanted);
      const result = await write((version) =>
        addFromTemplate({ workflow_id: workflowId, step_info_id: stepInfoId, version, ...(after ? { after_step_id: after.id } : {}), x: at.x, y: at.y }),
      );
      if ('data' in result && result.data) setSelectedIds([result.data.id]);
    },
    [addFromTemplate, workflowId, write],
  );

  const onConnect = useCallback(
    (source: string, target: string) => {
      const step = stepsRef.current.find((s) => s.id === target);
      if (!step) return;
      const inputs = inputsAfterConnect(step, source, catalogueRef.current?.get(step.step_type));
      // A refused connection (a cycle: 422) is explained by the notices and never drawn: edges
      // come from the server's workflow only.
      if (inputs) void write((version) => updateStep({ workflowId, stepId: target, version, changes: { inputs } }));
    },
    [updateStep, workflowId, write],
  );

  const onRemoveEdges = useCallback(
    (edges: Edge[]) => {
      const byTarget = new Map<string, Set<string>>();
      for (const e of edges) byTarget.set(e.target, (byTarget.get(e.target) ?? new Set()).add(e.source));
      for (const [target, sources] of byTarget) {
        const step = stepsRef.current.find((s) => s.id === target);
        if (step) void write((version) => updateStep({ workflowId, stepId: target, version, changes: { inputs: step.inputs.filter((i) => !sources.has(i)) } }));
      }
    },
    [updateStep, workflowId, write],
  );

  // Deleting steps (settings panel, selection bar, Delete key) is asked first: toDelete holds them.
  const [toDelete, setToDelete] = useState<string[]>([]);
  const onRemoveSteps = useCallback((ids: string[]) => setToDelete(ids), []);
  const keepSteps = useCallback(() => setToDelete([]), []);
  const removeSteps = useCallback(
    (ids: string[]) => {
      setToDelete([]);
      if (ids.length === 0) return;
      void write((version) => deleteSteps({ workflowId, stepIds: ids, version })).then((result) => {
        if ('data' in result) dispatch(draftsOfStepsDropped({ workflowId, stepIds: ids }));
      });
      setSelectedIds([]);
    },
    [deleteSteps, dispatch, workflowId, write],
  );

  const flushMoves = useCallback(() => {
    const moves = [...pendingMoves.current];
    pendingMoves.current.clear();
    for (const [stepId, position] of moves) {
      void write((version) => updateStep({ workflowId, stepId, version, changes: { position: { x: Math.round(position.x), y: Math.round(position.y) } } }));
    }
  }, [updateStep, workflowId, write]);

  const onMoved = useCallback(
    (moves: { id: string; position: XYPosition }[]) => {
      // The canvas keeps the new place at once; the server hears about it when dragging pauses.
      patchWorkflow(dispatch, workflowId, (draft) => {
        for (const m of moves) {
          const step = draft.steps.find((s) => s.id === m.id);
          if (step) step.position = { x: m.position.x, y: m.position.y };
        }
      });
      for (const m of moves) pendingMoves.current.set(m.id, m.position);
      clearTimeout(moveTimer.current);
      moveTimer.current = setTimeout(flushMoves, MOVE_SAVE_DELAY_MS);
    },
    [dispatch, flushMoves, workflowId],
  );

  // Copy and paste (Ctrl/⌘+C, Ctrl/⌘+V): the copies keep their params and the connections among
  // themselves, and land beside the originals on free spots. One step after another, so each copy
  // can read from the new id of the copy it reads.
  const pasteSteps = useCallback(async () => {
    const originals = copied.current;
    if (!originals.length) return;
    const newId = new Map<string, string>();
    const taken = [...stepsRef.current];
    const pending = [...originals];
    while (pending.length) {
      const i = pending.findIndex((s) => s.inputs.every((input) => !originals.some((o) => o.id === input) || newId.has(input)));
      const step = pending.splice(i < 0 ? 0 : i, 1)[0];
      const position = freeSpot(taken, { x: step.position.x + 40, y: step.position.y + 40 });
      const inputs = step.inputs.flatMap((input) => (newId.has(input) ? [newId.get(input)!] : []));
      const result = await write((version) =>
        addStepMutation({ workflow_id: workflowId, step_type: step.step_type, param_inputs: step.param_inputs, inputs, position, version }),
      );
      if (!('data' in result) || !result.data) break;
      newId.set(step.id, result.data.id);
      taken.push(result.data);
    }
    if (newId.size) setSelectedIds([...newId.values()]);
  }, [addStepMutation, workflowId, write]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || isTypingTarget(event.target)) return;
      const key = event.key.toLowerCase();
      if (key === 'c' && selectedRef.current.length && !window.getSelection()?.toString()) {
        copied.current = stepsRef.current.filter((s) => selectedRef.current.includes(s.id));
        event.preventDefault();
      } else if (key === 'v' && copied.current.length) {
        event.preventDefault();
        void pasteSteps();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [pasteSteps]);

  // Tidy up: every step the layered layout moves is moved like a drag (shown at once, then saved).
  const onTidy = useCallback(() => {
    const moves = tidyMoves(stepsRef.current);
    if (moves.length) onMoved(moves);
  }, [onMoved]);

  useEffect(
    () => () => {
      clearTimeout(moveTimer.current);
      if (pendingMoves.current.size) flushMoves();
    },
    [flushMoves],
  );

  const onDuplicate = useCallback(
    async (stepId: string) => {
      const result = await write(() => cloneStep({ workflowId, stepId }));
      if ('data' in result && result.data) setSelectedIds([result.data.id]);
    },
    [cloneStep, workflowId, write],
  );

  if (isLoading) {
    return (
      <Center flex="1" py="20">
        <Spinner color="brand.solid" />
      </Center>
    );
  }
  if (isError || !workflow) {
    return (
      <Center flex="1" py="20">
        <Stack align="center" gap="4">
          <Heading size="lg">{t('editor.notFound')}</Heading>
          <Button asChild variant="outline">
            <LocaleLink to="/workflows">{t('editor.back')}</LocaleLink>
          </Button>
        </Stack>
      </Center>
    );
  }

  const inspected = selectedIds.length === 1 ? workflow.steps.find((s) => s.id === selectedIds[0]) : undefined;
  const multi = selectedIds.filter((id) => workflow.steps.some((s) => s.id === id));

  return (
    <Flex direction="column" flex="1" h={{ base: 'auto', lg: 'calc(100dvh - 4rem)' }} minH="0">
      <EditorToolbar
        key={workflow.id}
        workflow={workflow}
        write={write}
        runButton={
          <RunWorkflowButton
            workflowId={workflow.id}
            steps={workflow.steps}
            notReady={notReady}
            onShowStep={showStep}
            busy={editorRun.busy}
            pausedForCredits={editorRun.pausedForCredits}
            onStarted={onRunStarted}
          />
        }
      />
      <ShortcutSheet />
      <Flex flex="1" minH="0" direction={{ base: 'column', lg: 'row' }}>
        <Box
          as="aside"
          order={{ base: 2, lg: 0 }}
          w={{ base: 'full', lg: '80' }}
          flexShrink="0"
          borderRightWidth={{ lg: '1px' }}
          borderTopWidth={{ base: '1px', lg: 0 }}
          borderColor="border.muted"
          bg="bg.panel"
          display="flex"
          flexDirection="column"
          minH="0"
          maxH={{ base: '70vh', lg: 'none' }}
        >
          <Tabs.Root defaultValue="steps" size="sm" variant="line" display="flex" flexDirection="column" flex="1" minH="0" lazyMount>
            {/* Four tabs in the panel's 320 px: words only, on one line each (with icons, English
                squeezed the icons away and Chinese broke its words over two lines). */}
            <Tabs.List px="3">
              {(['steps', 'variables', 'history', 'assistant'] as const).map((tab) => (
                <Tabs.Trigger key={tab} value={tab} whiteSpace="nowrap">
                  {t(`editor.tab.${tab}`)}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            <Tabs.Content value="steps" flex="1" minH="0" px="4" pb="0" display="flex" flexDirection="column" _open={{ display: 'flex' }}>
              <CataloguePanel onAdd={addStep} />
            </Tabs.Content>
            <Tabs.Content value="variables" flex="1" minH="0" px="4" overflowY="auto">
              <VariablesPanel workflowId={workflow.id} variables={workflow.variables} write={write} />
            </Tabs.Content>
            <Tabs.Content value="history" flex="1" minH="0" px="4" overflowY="auto">
              <HistoryPanel workflowId={workflow.id} currentVersion={workflow.version} write={write} />
            </Tabs.Content>
            <Tabs.Content value="assistant" flex="1" minH="0" px="4" pt="0" display="flex" flexDirection="column" _open={{ display: 'flex' }}>
              <ChatPanel workflowId={workflow.id} write={write} />
            </Tabs.Content>
          </Tabs.Root>
        </Box>

        <Flex direction="column" flex={{ base: 'none', lg: '1' }} minW="0" minH="0" order={{ base: 1, lg: 0 }}>
          <Box flex={{ base: 'none', lg: '1' }} position="relative" h={{ base: '60vh', lg: 'auto' }} minH="0" bg="canvas">
            <ReactFlowProvider>
              <StepCanvas
                steps={workflow.steps}
                catalogue={catalogue}
                selected={selected}
                unsaved={drafted}
                stepRuns={editorRun.byStep}
                onSelect={onSelect}
                onConnect={onConnect}
                onRemoveEdges={onRemoveEdges}
                onRemoveSteps={onRemoveSteps}
                onMoved={onMoved}
                onDropStep={addStep}
                onTidy={onTidy}
              />
            </ReactFlowProvider>
            {workflow.steps.length === 0 && (
              <Center position="absolute" inset="0" pointerEvents="none">
                <Stack align="center" gap="2" maxW="xs" textAlign="center" bg="bg.panel/90" p="6" rounded="2xl" borderWidth="1px" borderStyle="dashed">
                  <LuMousePointerClick size="28" aria-hidden />
                  <Text fontWeight="semibold">{t('editor.empty.title')}</Text>
                  <Text textStyle="sm" color="fg.muted">
                    {t('editor.empty.body')}
                  </Text>
                </Stack>
              </Center>
            )}
            {multi.length > 1 && (
              <Flex
                position="absolute"
                top="3"
                left="50%"
                transform="translateX(-50%)"
                gap="3"
                align="center"
                bg="bg.panel"
                shadow="md"
                rounded="full"
                px="4"
                py="1.5"
                borderWidth="1px"
                zIndex="10"
              >
                <Text textStyle="sm">{t('editor.selected', { count: multi.length })}</Text>
                <Button size="xs" colorPalette="red" variant="subtle" rounded="full" onClick={() => onRemoveSteps(multi)}>
                  <LuTrash2 aria-hidden />
                  {t('editor.deleteSelected')}
                </Button>
              </Flex>
            )}
          </Box>
          <RunPanel editorRun={editorRun} stepIds={stepIds} />
        </Flex>

        {inspected && (
          <Box
            as="aside"
            order={{ base: 3, lg: 0 }}
            w={{ base: 'full', lg: '96' }}
            flexShrink="0"
            borderLeftWidth={{ lg: '1px' }}
            borderTopWidth={{ base: '1px', lg: 0 }}
            borderColor="border.muted"
            bg="bg.panel"
            overflowY="auto"
            px="5"
            pt="5"
            aria-label={t('editor.inspector.label')}
          >
            <StepRunSection
              workflowId={workflow.id}
              step={inspected}
              stepRun={editorRun.byStep.get(inspected.id)}
              busy={editorRun.busy}
              pausedForCredits={editorRun.pausedForCredits}
              onStarted={onRunStarted}
            />
            <StepData step={inspected} stepRuns={editorRun.byStep} />
            <StepInspector
              key={inspected.id}
              workflowId={workflow.id}
              step={inspected}
              info={catalogue?.get(inspected.step_type)}
              write={write}
              onClose={() => setSelectedIds([])}
              onDelete={(id) => onRemoveSteps([id])}
              onDuplicate={onDuplicate}
            />
          </Box>
        )}
      </Flex>
      <DeleteStepsDialog steps={workflow.steps} ids={toDelete} onConfirm={removeSteps} onCancel={keepSteps} />
    </Flex>
  );
}
