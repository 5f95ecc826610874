import { Box, Button } from '@chakra-ui/react';
import {
  applyNodeChanges,
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  Panel,
  ReactFlow,
  useReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type NodeChange,
  type OnSelectionChangeParams,
  type XYPosition,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useTheme } from 'next-themes';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { LuTrash2, LuWandSparkles } from 'react-icons/lu';
import { useIntl } from 'react-intl';
import type { StepOut } from '../../../../server/src/modules/steps/steps.schemas';
import type { StepRun } from '../../runs/runsApi';
import { deriveEdges, deriveNodes, type NodeCache, type NodeTypeInfo, type StepFlowNode } from './graph';
import { useCanvasAriaLabels } from './canvasAriaLabels';
import { nodeTypes } from './StepNode';
import { useSelectedStepInView } from './useSelectedStepInView';

/** What the catalogue puts on a drag so the canvas knows which step type was dropped. */
export const STEP_DRAG_TYPE = 'application/x-stepwise-step';

interface CanvasView {
  steps: StepOut[];
  catalogue: ReadonlyMap<string, NodeTypeInfo> | undefined;
  selected: ReadonlySet<string>;
  /** Steps with settings typed but not saved (drafts): their cards say so. */
  unsaved?: ReadonlySet<string>;
  /** Step runs of the run shown, by step id: each node shows its state and records. */
  stepRuns?: ReadonlyMap<string, StepRun>;
  onSelect: (ids: string[]) => void;
}

interface EditableCanvas extends CanvasView {
  readOnly?: false;
  onConnect: (source: string, target: string) => void;
  onRemoveEdges: (edges: Edge[]) => void;
  onRemoveSteps: (ids: string[]) => void;
  onMoved: (moves: { id: string; position: XYPosition }[]) => void;
  onDropStep: (stepInfoId: string, position: XYPosition) => void;
  /** Lay the whole graph out again (layered, nothing overlapping) and save the new places. */
  onTidy: () => void;
}

const NONE: ReadonlySet<string> = new Set();
const NO_RUNS: ReadonlyMap<string, StepRun> = new Map();
/** The gallery's preview: steps can be picked to read their settings, nothing can be changed. */
interface ReadOnlyCanvas extends CanvasView {
  readOnly: true;
}

type StepCanvasProps = EditableCanvas | ReadOnlyCanvas;

const DELETE_KEYS = ['Backspace', 'Delete'];
const fitViewOptions = { padding: 0.3, maxZoom: 1.1 };
const proOptions = { hideAttribution: true };

/** React Flow's own colours (zoom controls, minimap, edges, dots) taken from the Chakra theme's
 *  semantic tokens, declared outside .react-flow so they resolve in the page's colour mode. */
const canvasColours = {
  '--xy-background-color': 'transparent',
  '--xy-node-color': 'var(--chakra-colors-fg)',
  '--xy-background-pattern-color': 'var(--chakra-colors-border-emphasized)',
  '--xy-edge-stroke': 'var(--chakra-colors-fg-subtle)',
  '--xy-edge-stroke-selected': 'var(--chakra-colors-brand-solid)',
  '--xy-edge-label-background-color': 'var(--chakra-colors-bg-panel)',
  '--xy-edge-label-color': 'var(--chakra-colors-fg-muted)',
  '--xy-connectionline-stroke': 'var(--chakra-colors-brand-solid)',
  '--xy-handle-background-color': 'var(--chakra-colors-fg-muted)',
  '--xy-handle-border-color': 'var(--chakra-colors-bg-panel)',
  '--xy-controls-button-background-color': 'var(--chakra-colors-bg-panel)',
  '--xy-controls-button-background-color-hover': 'var(--chakra-colors-bg-muted)',
  '--xy-controls-button-color': 'var(--chakra-colors-fg)',
  '--xy-controls-button-color-hover': 'var(--chakra-colors-fg)',
  '--xy-controls-button-border-color': 'var(--chakra-colors-border)',
  '--xy-minimap-background-color': 'var(--chakra-colors-bg-panel)',
  '--xy-minimap-mask-background-color': 'color-mix(in srgb, var(--chakra-colors-bg-muted) 70%, transparent)',
  '--xy-minimap-node-background-color': 'var(--chakra-colors-bg-emphasized)',
  '--xy-minimap-node-stroke-color': 'var(--chakra-colors-border)',
  '--xy-selection-background-color': 'color-mix(in srgb, var(--chakra-colors-brand-solid) 10%, transparent)',
  '--xy-selection-border': '1px dotted var(--chakra-colors-brand-solid)',
};

/** Handlers that change nothing, for the read-only canvas (hooks are called either way). */
const noEdits: Omit<EditableCanvas, keyof CanvasView> = {
  onConnect: () => undefined,
  onRemoveEdges: () => undefined,
  onRemoveSteps: () => undefined,
  onMoved: () => undefined,
  onDropStep: () => undefined,
  onTidy: () => undefined,
};

/**
 * The step graph. Nodes and edges come from the server's workflow; ReactFlow keeps only what is
 * purely local (measured sizes, a drag in progress). Deleting, connecting and moving are reported
 * up and done by the server; the canvas then follows the refreshed workflow. Read-only (the
 * gallery's preview), nothing can be dragged, connected or deleted.
 */
export const StepCanvas = memo(function StepCanvas(props: StepCanvasProps) {
  const { steps, catalogue, selected, unsaved = NONE, stepRuns = NO_RUNS, onSelect, readOnly = false } = props;
  const { onConnect, onRemoveEdges, onRemoveSteps, onMoved, onDropStep, onTidy } = props.readOnly ? noEdits : props;
  const intl = useIntl();
  // React Flow marks its root "light" or "dark"; Chakra's tokens follow that class, so it must be
  // the page's mode (a "light" root inside a dark page made the cards white under white titles).
  const { resolvedTheme } = useTheme();
  const colorMode = resolvedTheme === 'dark' ? 'dark' : 'light';
  const { screenToFlowPosition } = useReactFlow();
  const cache = useRef<NodeCache>(new Map());
  const mergedFrom = useRef(new WeakMap<StepFlowNode, StepFlowNode>());
  const base = useMemo(() => deriveNodes(steps, catalogue, selected, cache.current, unsaved, stepRuns), [steps, catalogue, selected, unsaved, stepRuns]);
  // Which connections are selected is purely local; deleting one is reported up (onRemoveEdges).
  const [selectedEdges, setSelectedEdges] = useState<ReadonlySet<string>>(new Set());
  const edges = useMemo(
    () =>
      deriveEdges(steps, stepRuns, (count) => intl.formatMessage({ id: 'editor.edge.rows' }, { count })).map((e) =>
        selectedEdges.has(e.id) ? { ...e, selected: true } : e,
      ),
    [intl, steps, stepRuns, selectedEdges],
  );
  const pickedEdges = useMemo(() => edges.filter((e) => e.selected), [edges]);
  const ariaLabelConfig = useCanvasAriaLabels();
  const [nodes, setNodes] = useState<StepFlowNode[]>(base);
  const container = useRef<HTMLDivElement>(null);
  useSelectedStepInView(container, selected);

  useEffect(() => {
    setNodes((previous) => {
      const byId = new Map(previous.map((n) => [n.id, n]));
      return base.map((node) => {
        const local = byId.get(node.id);
        if (!local || local === node || mergedFrom.current.get(local) === node) return local ?? node;
        // Keep what ReactFlow measured, or the node would be hidden until measured again.
        const merged = { ...node, measured: local.measured };
        mergedFrom.current.set(merged, node);
        return merged;
      });
    });
  }, [base]);

  const onNodesChange = useCallback((changes: NodeChange<StepFlowNode>[]) => {
    // Removal goes through onBeforeDelete (the server decides); everything else is local.
    setNodes((current) =>
      applyNodeChanges(
        changes.filter((c) => c.type !== 'remove'),
        current,
      ),
    );
  }, []);

  const onEdgesChange = useCallback((changes: EdgeChange[]) => {
    setSelectedEdges((current) => {
      const next = new Set(current);
      for (const c of changes) {
        if (c.type === 'select') {
          if (c.selected) next.add(c.id);
          else next.delete(c.id);
        } else if (c.type === 'remove') next.delete(c.id);
      }
      return next.size === current.size && [...next].every((id) => current.has(id)) ? current : next;
    });
  }, []);

  const removePickedEdges = useCallback(() => {
    onRemoveEdges(pickedEdges);
    setSelectedEdges(new Set());
  }, [onRemoveEdges, pickedEdges]);

  const onSelectionChange = useCallback(({ nodes: picked }: OnSelectionChangeParams) => onSelect(picked.map((n) => n.id)), [onSelect]);

  const onBeforeDelete = useCallback(
    async ({ nodes: gone, edges: cut }: { nodes: StepFlowNode[]; edges: Edge[] }) => {
      if (gone.length > 0) onRemoveSteps(gone.map((n) => n.id));
      else if (cut.length > 0) {
        onRemoveEdges(cut);
        setSelectedEdges(new Set());
      }
      return false;
    },
    [onRemoveEdges, onRemoveSteps],
  );

  const handleConnect = useCallback((c: Connection) => c.source && c.target && onConnect(c.source, c.target), [onConnect]);

  const onNodeDragStop = useCallback(
    (_: unknown, _node: StepFlowNode, dragged: StepFlowNode[]) => onMoved(dragged.map((n) => ({ id: n.id, position: n.position }))),
    [onMoved],
  );

  const onDragOver = useCallback((event: DragEvent) => {
    if (event.dataTransfer.types.includes(STEP_DRAG_TYPE)) {
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    }
  }, []);

  const onDrop = useCallback(
    (event: DragEvent) => {
      const id = event.dataTransfer.getData(STEP_DRAG_TYPE);
      if (!id) return;
      event.preventDefault();
      onDropStep(id, screenToFlowPosition({ x: event.clientX - 110, y: event.clientY - 24 }));
    },
    [onDropStep, screenToFlowPosition],
  );

  return (
    <Box
      ref={container}
      h="full"
      w="full"
      css={canvasColours}
      onDragOver={readOnly ? undefined : onDragOver}
      onDrop={readOnly ? undefined : onDrop}
      aria-label={intl.formatMessage({ id: readOnly ? 'editor.canvasReadOnly' : 'editor.canvas' })}
      role="region"
      data-readonly={readOnly || undefined}
    >
      <ReactFlow<StepFlowNode>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        colorMode={colorMode}
        onNodesChange={onNodesChange}
        onEdgesChange={readOnly ? undefined : onEdgesChange}
        onSelectionChange={onSelectionChange}
        onBeforeDelete={onBeforeDelete}
        onConnect={readOnly ? undefined : handleConnect}
        onNodeDragStop={readOnly ? undefined : onNodeDragStop}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        edgesFocusable={!readOnly}
        edgesReconnectable={false}
        deleteKeyCode={readOnly ? null : DELETE_KEYS}
        multiSelectionKeyCode={readOnly ? null : ['Meta', 'Control', 'Shift']}
        selectionKeyCode={readOnly ? null : undefined}
        fitView
        fitViewOptions={fitViewOptions}
        minZoom={0.1}
        proOptions={proOptions}
        ariaLabelConfig={ariaLabelConfig}
        defaultEdgeOptions={{ animated: false, style: { strokeWidth: 2 } }}
        onlyRenderVisibleElements={steps.length > 80}
      >
        <Background variant={BackgroundVariant.Dots} gap={20} size={1.2} />
        <Controls showInteractive={false} position="bottom-left" />
        {!readOnly && pickedEdges.length > 0 && (
          <Panel position="top-center">
            <Button
              size="xs"
              colorPalette="red"
              variant="subtle"
              shadow="sm"
              rounded="full"
              onClick={removePickedEdges}
              title={intl.formatMessage({ id: 'editor.edge.deleteHint' })}
            >
              <LuTrash2 aria-hidden />
              {intl.formatMessage({ id: 'editor.edge.delete' })}
            </Button>
          </Panel>
        )}
        {!readOnly && steps.length > 1 && (
          <Panel position="top-right">
            <Button size="xs" variant="outline" bg="bg.panel" shadow="sm" onClick={onTidy} title={intl.formatMessage({ id: 'editor.tidy.hint' })}>
              <LuWandSparkles aria-hidden />
              {intl.formatMessage({ id: 'editor.tidy' })}
            </Button>
          </Panel>
        )}
        {steps.length > 6 && <MiniMap pannable zoomable position="bottom-right" />}
      </ReactFlow>
    </Box>
  );
});
