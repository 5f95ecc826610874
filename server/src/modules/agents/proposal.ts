import type { CommitCard } from '../conversations/conversations.schemas';
import type { WorkflowSnapshot } from '../workflows/workflow-state';

/**
 * A dry run's edits, kept on the server with its message so "Apply" writes exactly what was shown
 * (not a new plan by the model): the workflow as the turn left it, and the version it started from.
 */
export interface Proposal {
  base_version: number;
  after: WorkflowSnapshot;
}

/** The card as stored with its message: a proposal's edits stay on the server, never sent. */
export type StoredCommitCard = CommitCard & { proposal?: Proposal };

/** The card as clients see it (without a proposal's stored edits). */
export function publicCard(card: StoredCommitCard): CommitCard {
  const { proposal: _proposal, ...shown } = card;
  return shown;
}
