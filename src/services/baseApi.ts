import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQuery } from './baseQuery';

// The one RTK Query api slice (docs/architecture: "one base slice per server"). Each backend area
// injects its endpoints from its own file (features/<area>/<area>Api.ts). All tag types are
// declared here, once, so any area can invalidate another's data (a finished run → Dataset).

export const tagTypes = [
  'Workflow',
  'Step',
  'StepInfo',
  'Variable',
  'Commit',
  'WorkflowRun',
  'StepRun',
  'Dataset',
  'Record',
  'File',
  'Folder',
  'Conversation',
  'Usage',
  'Balance',
  'Payment',
  'ComputeJob',
  'ContactQuery',
  'Invitation',
  'Video',
  'User',
  'Settings',
] as const;

export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes,
  endpoints: () => ({}),
});
