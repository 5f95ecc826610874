import { useCallback, useRef } from 'react';
import { useStore } from 'react-redux';
import type { RootState } from '../../../app/store';
import { newestVersion } from '../versioning';
import { workflowsApi } from '../workflowsApi';

/**
 * The editor's writes, one after another. Each reads the workflow's version right before it is
 * sent (If-Match), after the previous write's answer has moved it on, so a quick rename + move +
 * param change never trips over its own earlier write. Another tab's change still answers 409.
 */
export function useWorkflowWrites(workflowId: string) {
  const store = useStore<RootState>();
  const chain = useRef<Promise<unknown>>(Promise.resolve());

  const currentVersion = useCallback(
    () => newestVersion(workflowId, workflowsApi.endpoints.getWorkflow.select(workflowId)(store.getState()).data?.version),
    [store, workflowId],
  );

  const write = useCallback(
    <T>(send: (version: number | undefined) => PromiseLike<T>): Promise<T> => {
      const next = chain.current.then(() => send(currentVersion()));
      chain.current = next.catch(() => undefined);
      return next;
    },
    [currentVersion],
  );

  return { write, currentVersion };
}
