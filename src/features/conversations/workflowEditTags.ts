/** What an agent's edit of a workflow makes stale: the same tags as the editor's own edits and undo. */
export const workflowEditTags = (workflowId: string) => [
  { type: 'Workflow' as const, id: workflowId },
  { type: 'Step' as const, id: workflowId },
  { type: 'Variable' as const, id: workflowId },
  { type: 'Commit' as const, id: workflowId },
  { type: 'Workflow' as const, id: 'LIST' },
];
