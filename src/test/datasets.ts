import type { DatasetOut } from '../features/datasets/datasetsApi';

/** A dataset as GET /datasets/{id} answers it: `_id` first, then these columns; made in workflow w-1, by no run. */
export function datasetOut(id: string, columns: DatasetOut['columns'], rowCount: number): DatasetOut {
  return {
    id,
    name: id,
    columns: [{ name: '_id', type: 'VARCHAR' }, ...columns],
    row_count: rowCount,
    bytes: 1024,
    step_run_id: null,
    run_id: null,
    workflow_id: 'w-1',
    step_id: null,
    created_at: '2026-11-20T10:00:00.000Z',
    expires_at: null,
  };
}
