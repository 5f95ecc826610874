import { randomUUID } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { Db } from '../../db/database';
import { getStepDescription } from '../../engine/step-types';
import type { Language } from '../../i18n/messages';
import { conflict, notFound } from '../../lib/errors';
import { localeOf, textsOf } from '../step-infos/catalogue';
import { StepOverridesService } from '../step-infos/step-overrides.service';
import { CommitsRepository } from './commits.repository';
import { toPublicDetail, type StepTypeLook } from './public-view';
import { WorkflowEditor, type CommitMessage, type EditContext } from './workflow-editor';
import { forHistory } from './workflow-delta';
import type { WorkflowSnapshot } from './workflow-state';
import { toSummaryOut, toWorkflowOut, withoutSecrets } from './workflow-views';
import { RunLookupsService } from '../runs/run-lookups.service';
import { WorkflowsRepository, type WorkflowRow } from './workflows.repository';
import type {
  WorkflowCreateIn,
  WorkflowInfoOut,
  WorkflowListQuery,
  WorkflowOut,
  WorkflowPage,
  WorkflowUpdateIn,
  PublicWorkflowDetailOut,
} from './workflows.schemas';

export const emptySnapshot = (name: string, description = '', tags: string[] = []): WorkflowSnapshot => ({
  name,
  description,
  tags,
  steps: [],
  variables: [],
});

/** The input limits the graph rules need, from the step catalogue. */
export const inputLimitsOf = (stepType: string) => getStepDescription(stepType)?.inputs ?? null;

export const editorFor = (db: Db) => new WorkflowEditor(db, inputLimitsOf);

export class WorkflowsService {
  private readonly repo: WorkflowsRepository;
  private readonly commits: CommitsRepository;
  private readonly editor: WorkflowEditor;

  constructor(private readonly db: Db) {
    this.repo = new WorkflowsRepository(db);
    this.commits = new CommitsRepository(db);
    this.editor = editorFor(db);
  }

  async list(userId: string, query: WorkflowListQuery): Promise<Static<typeof WorkflowPage>> {
    const { rows, total } = await this.repo.list(userId, {
      q: query.q?.trim() || undefined,
      sort: query.sort,
      order: query.order,
      limit: query.page_size,
      offset: (query.page - 1) * query.page_size,
    });
    return { items: rows.map((r) => toSummaryOut(r, r.step_count)), total, page: query.page, page_size: query.page_size };
  }

  /** A new workflow starts its history with a "created" commit holding its first state. */
  async create(userId: string, input: WorkflowCreateIn, snapshot?: WorkflowSnapshot, clonedFromId: string | null = null): Promise<WorkflowOut> {
    const state = snapshot ?? emptySnapshot(input.name.trim(), input.description ?? '', input.tags ?? []);
    const now = new Date().toISOString();
    const row: WorkflowRow = {
      id: randomUUID(),
      owner_id: userId,
      name: state.name,
      description: state.description,
      tags: JSON.stringify(state.tags),
      version: 1,
      ...UNPUBLISHED,
      cloned_from_id: clonedFromId,
      clone_count: 0,
      created_at: now,
      updated_at: now,
    };
    const message: CommitMessage = clonedFromId ? { key: 'server.history.msg.cloned' } : { key: 'server.history.msg.created' };
    await this.db.transaction().execute(async (trx) => {
      const repo = new WorkflowsRepository(trx);
      await repo.insert(row);
      const changes = [{ entity: 'workflow' as const, id: row.id, op: 'create' as const }];
      await repo.saveChanges(
        row.id,
        state,
        [
          ...state.steps.map((s) => ({ entity: 'step' as const, id: s.id, op: 'create' as const })),
          ...state.variables.map((v) => ({ entity: 'variable' as const, id: v.id, op: 'create' as const })),
        ],
        now,
      );
      // The first commit is always a checkpoint: every later state is rebuilt from one.
      await new CommitsRepository(trx).insert({
        id: randomUUID(),
        workflow_id: row.id,
        seq: 1,
        author_id: userId,
        kind: 'create',
        message: JSON.stringify(message),
        changes: JSON.stringify(changes),
        checkpoint: JSON.stringify(forHistory(state)),
        delta: null,
        depth: 0,
        created_at: now,
      });
    });
    return toWorkflowOut({ ...row, can_undo: false, can_redo: false }, state);
  }

  async get(userId: string, id: string): Promise<WorkflowOut> {
    const row = await this.owned(userId, id);
    const [snapshot, undo] = await Promise.all([this.repo.loadSnapshot(row), this.commits.availability(row.id)]);
    return toWorkflowOut({ ...row, ...undo }, snapshot);
  }

  async update(ctx: EditContext, patch: WorkflowUpdateIn): Promise<WorkflowOut> {
    const fields = (['name', 'description', 'tags'] as const).filter((f) => patch[f] !== undefined);
    const { workflow, snapshot } = await this.editor.edit(
      ctx,
      { key: 'server.history.msg.workflowUpdated', values: { fields: fields.join(', ') } },
      (draft) => {
        if (patch.name !== undefined) draft.name = patch.name.trim();
        if (patch.description !== undefined) draft.description = patch.description;
        if (patch.tags !== undefined) draft.tags = patch.tags.map((t) => t.trim());
      },
    );
    return toWorkflowOut(workflow, snapshot);
  }

  /** With `expectedVersion` (If-Match), only the version the caller saw is deleted; a newer one answers 409. */
  async delete(userId: string, id: string, expectedVersion?: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const repo = new WorkflowsRepository(trx);
      await lockedAt(repo, userId, id, expectedVersion);
      await repo.delete(id);
    });
  }

  /**
   * Publishing copies the current state (without secret values) to the gallery, noting the version
   * it was taken from; later edits stay private until published again, and publishing a published
   * workflow replaces its copy with the current state. With `expectedVersion` (If-Match), only the
   * version the caller saw is published; a newer one answers 409. Publishing is not an edit: the
   * version stays.
   */
  async publish(userId: string, id: string, published: boolean, expectedVersion?: number): Promise<WorkflowOut> {
    return this.db.transaction().execute(async (trx) => {
      const repo = new WorkflowsRepository(trx);
      const row = await lockedAt(repo, userId, id, expectedVersion);
      const [snapshot, undo] = await Promise.all([repo.loadSnapshot(row), new CommitsRepository(trx).availability(row.id)]);
      const fields = publication(snapshot, row.version, published);
      await repo.update(id, fields);
      return toWorkflowOut({ ...row, ...fields, ...undo }, snapshot);
    });
  }

  async listPublic(query: { page: number; page_size: number; q?: string }) {
    const { rows, total } = await this.repo.listPublished({
      q: query.q?.trim() || undefined,
      limit: query.page_size,
      offset: (query.page - 1) * query.page_size,
    });
    const items = rows.map((r) => {
      const snapshot = JSON.parse(r.published_snapshot!) as WorkflowSnapshot;
      return {
        id: r.id,
        name: snapshot.name,
        description: snapshot.description,
        tags: snapshot.tags,
        author_name: r.author_name,
        step_count: snapshot.steps.length,
        clone_count: r.clone_count,
        published_at: r.published_at!,
      };
    });
    return { items, total, page: query.page, page_size: query.page_size };
  }

  /**
   * One workflow of the gallery as it was published (never the live state), for anyone: secret
   * values and the author's file and dataset ids withheld, step types in the caller's language.
   * Unpublished, deleted or missing all answer 404 alike.
   */
  async getPublic(id: string, language: Language = 'en'): Promise<PublicWorkflowDetailOut> {
    const row = await this.repo.findPublished(id);
    if (!row?.published_snapshot || !row.published_at) throw notFound('server.workflows.notFound');
    const infos = new Map((await new StepOverridesService(this.db).effectiveInfos()).map((info) => [info.type.id, info]));
    const locale = localeOf(language);
    const lookOf = (stepType: string): StepTypeLook | undefined => {
      const info = infos.get(stepType);
      if (!info) return undefined;
      const zh = language === 'zh-CN' ? info.type.i18n?.['zh-CN'] : undefined;
      return {
        name: textsOf(info, locale).name,
        category: info.category,
        params: info.type.params.map((p) => ({ name: p.name, type: p.type, label: zh?.params?.[p.name]?.label ?? p.label })),
      };
    };
    const published = JSON.parse(row.published_snapshot) as WorkflowSnapshot;
    return toPublicDetail({ id: row.id, author_name: row.author_name, clone_count: row.clone_count, published_at: row.published_at }, published, lookOf);
  }

  /** Counts and an estimated cost; the cost notes are in the caller's language. */
  async info(userId: string, id: string, language: Language = 'en'): Promise<WorkflowInfoOut> {
    const row = await this.owned(userId, id);
    const runs = new RunLookupsService(this.db);
    const [snapshot, lastRun, outputs] = await Promise.all([this.repo.loadSnapshot(row), runs.lastRun(id), runs.latestOutputsOf(id, userId)]);
    const byCategory: Record<string, number> = {};
    let perRun = 0;
    let perRecord = 0;
    const notes = new Set<string>();
    for (const step of snapshot.steps) {
      const type = getStepDescription(step.step_type);
      if (!type) continue;
      byCategory[type.category] = (byCategory[type.category] ?? 0) + 1;
      if (type.cost.per === 'run') perRun += type.cost.credits;
      else perRecord += type.cost.credits;
      const note = (language === 'zh-CN' ? type.i18n?.['zh-CN']?.cost_note : undefined) ?? type.cost.note;
      if (note) notes.add(note);
    }
    return {
      id: row.id,
      step_count: snapshot.steps.length,
      variable_count: snapshot.variables.length,
      steps_by_category: byCategory,
      last_run: lastRun ? { id: lastRun.id, status: lastRun.state, started_at: lastRun.created_at } : null,
      datasets: snapshot.steps.flatMap((s) => {
        const o = outputs.get(s.id);
        return o ? [{ id: o.datasetId, step_id: s.id, row_count: o.rowCount }] : [];
      }),
      estimated_cost: { credits_per_run: perRun, credits_per_record: perRecord, notes: [...notes] },
    };
  }

  private async owned(userId: string, id: string): Promise<WorkflowRow> {
    const row = await this.repo.findOwned(id, userId);
    if (!row) throw notFound('server.workflows.notFound');
    return row;
  }
}

/** The workflow's row, locked for the rest of the transaction, if it is the caller's and still at `expectedVersion`. */
async function lockedAt(repo: WorkflowsRepository, userId: string, id: string, expectedVersion: number | undefined): Promise<WorkflowRow> {
  const row = (await repo.lockOwned(id, userId)) ? await repo.findOwned(id, userId) : undefined;
  if (!row) throw notFound('server.workflows.notFound');
  if (expectedVersion !== undefined && expectedVersion !== row.version) throw conflict('server.workflows.staleVersion', { version: row.version });
  return row;
}

/** The gallery columns of a workflow that is not in the gallery (new, or withdrawn). */
const UNPUBLISHED = {
  visibility: 'private',
  published_snapshot: null,
  published_name: null,
  published_description: null,
  published_tags: null,
  published_at: null,
  published_version: null,
} as const satisfies Partial<WorkflowRow>;

/** The gallery columns: a copy of the state at `version` without secret values, or nothing when unpublished. */
function publication(snapshot: WorkflowSnapshot, version: number, published: boolean): Partial<WorkflowRow> {
  if (!published) return UNPUBLISHED;
  return {
    visibility: 'published',
    published_snapshot: JSON.stringify(withoutSecrets(snapshot)),
    published_name: snapshot.name,
    published_description: snapshot.description,
    published_tags: JSON.stringify(snapshot.tags),
    published_at: new Date().toISOString(),
    published_version: version,
  };
}
