import { createHash } from 'node:crypto';
import type { RunEngineDeps } from './ports';

export const now = () => new Date().toISOString();

export const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** A UUID made from text: a step run's output dataset id is the same on every try of one attempt. */
export function uuidFrom(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * What the engine's parts share: their dependencies, the step runs executing in this process (so
 * a pause or cancel taken here stops them at once), and the run's event log.
 */
export class EngineCore {
  /** Step runs executing in this process, by id, with their run's id. */
  readonly running = new Map<string, { runId: string; controller: AbortController; ended: Promise<void> }>();

  constructor(readonly deps: RunEngineDeps) {}

  get runs() {
    return this.deps.runs;
  }

  /** Stops the step runs executing here (a pause, a cancel, a shutdown: the reason says which). */
  abort(stepRunIds: Iterable<string>, reason: string): void {
    for (const id of stepRunIds) this.running.get(id)?.controller.abort(reason);
  }

  /**
   * Stops every step run of a run executing here. Called in the same turn as the write that pauses
   * or cancels the run, before any other await: once anyone can read the new state, no step of
   * the run in this process starts another outside call.
   */
  abortRun(runId: string, reason: string): void {
    for (const { runId: of, controller } of this.running.values()) if (of === runId) controller.abort(reason);
  }

  /**
   * Resolves once these step runs are no longer executing in this process (a stopped one still
   * stores the batch it was storing, and checkpoints the answers that came), or after `timeoutMs`.
   * A retry waits for it, so the attempt it starts never meets the stopped one's late writes.
   */
  async stopped(stepRunIds: Iterable<string>, timeoutMs: number): Promise<void> {
    const ends = [...stepRunIds].flatMap((id) => this.running.get(id)?.ended ?? []);
    if (!ends.length) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(ends), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  /** Appends to the run's event log and wakes whoever follows it. */
  async emit(runId: string, stepRunId: string | null, type: string, payload: unknown): Promise<void> {
    await this.deps.runs.appendEvent(runId, stepRunId, type, payload);
    this.deps.events.notify(runId);
  }
}
