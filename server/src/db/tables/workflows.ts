// Workflows, their steps and variables, and their history: commits and the undo/redo stacks.
// Row types as Kysely sees them (db/schema.ts composes every area's into `Database`).

export interface WorkflowsTable {
  id: string;
  owner_id: string;
  name: string;
  description: string;
  /** JSON string[] */
  tags: string;
  /** Grows by one with every commit; a write based on another version is refused (409). */
  version: number;
  visibility: 'private' | 'published';
  /** JSON WorkflowSnapshot as published to the gallery (secrets stripped). */
  published_snapshot: string | null;
  published_name: string | null;
  published_description: string | null;
  /** JSON string[] */
  published_tags: string | null;
  published_at: string | null;
  /** The workflow version the published copy was taken from; null when unpublished or not recorded. */
  published_version: number | null;
  cloned_from_id: string | null;
  clone_count: number;
  created_at: string;
  updated_at: string;
}

export interface WorkflowStepsTable {
  id: string;
  workflow_id: string;
  step_type: string;
  name: string;
  /** JSON object: param name → value or {{var.x}}/{{field.y}} reference */
  param_inputs: string;
  /** JSON string[]: the ids of the steps this one reads from, in order */
  inputs: string;
  position_x: number;
  position_y: number;
  created_at: string;
  updated_at: string;
}

export interface WorkflowVariablesTable {
  id: string;
  workflow_id: string;
  name: string;
  type: 'string' | 'number' | 'boolean' | 'json' | 'secret';
  description: string;
  value: string | null;
  created_at: string;
  updated_at: string;
}

export interface WorkflowCommitsTable {
  id: string;
  workflow_id: string;
  seq: number;
  author_id: string | null;
  kind: 'create' | 'edit' | 'undo' | 'redo' | 'restore';
  message: string;
  /** JSON Change[]: what the commit list shows. */
  changes: string;
  /**
   * JSON WorkflowSnapshot after this commit, on checkpoint commits only (a workflow's first commit
   * and then every HISTORY.checkpointEvery-th); secret values are never in it.
   */
  checkpoint: string | null;
  /** JSON SnapshotDelta (what changed, before and after) on every other commit. */
  delta: string | null;
  /** How many delta commits lie between this commit and its checkpoint (0: it is one). */
  depth: number;
  /** When the commit was made, or for merged canvas moves, when the last move was. */
  created_at: string;
}

/**
 * The undo and redo stacks, one row per commit on either (rows leave the bottom of the undo stack
 * beyond HISTORY.undoLimit). The top of a stack is its highest `position`.
 */
export interface WorkflowUndoEntriesTable {
  commit_id: string;
  workflow_id: string;
  stack: 'undo' | 'redo';
  /** The workflow version at which the entry was put on its stack; only the order counts. */
  position: number;
}
