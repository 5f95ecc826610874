import type { ComponentProps } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { FileDetailOut, FolderContentsOut } from '../../../server/src/modules/files/files.schemas';
import type { StepInfoOut } from '../../../server/src/modules/step-infos/step-infos.schemas';
import type { StepOut } from '../../../server/src/modules/steps/steps.schemas';
import { api } from '../../test/handlers';
import { renderWithProviders } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { StepInspector } from './StepInspector';

// A step's file and folder params are chosen in a picker that browses the user's files, never typed
// as ids. The files API is msw's; uploads go through a stand-in XMLHttpRequest (as in uploads.test.ts).

const at = '2026-03-14T10:00:00.000Z';
const storage = { used_bytes: 0, quota_bytes: 10 * 1024 ** 3, max_file_bytes: 5 * 1024 ** 3 };
const file = (id: string, name: string, folder_id: string | null = null) =>
  ({ type: 'file', id, name, folder_id, size: 2048, content_type: 'text/csv', checksum_sha256: 'a'.repeat(64), created_at: at, updated_at: at }) as const;
const folder = (id: string, name: string, parent_id: string | null = null) =>
  ({ type: 'folder', id, name, parent_id, created_at: at, updated_at: at }) as const;
const contents = (self: ReturnType<typeof folder> | null, path: { id: string; name: string }[], items: FolderContentsOut['items']): FolderContentsOut => ({
  folder: self && { id: self.id, name: self.name, parent_id: self.parent_id, created_at: at, updated_at: at },
  path,
  items,
  total: items.length,
  page: 1,
  page_size: 100,
  folder_count: items.filter((i) => i.type === 'folder').length,
  file_count: items.filter((i) => i.type === 'file').length,
  storage,
});

const reportsFolder = folder('d-1', 'Reports');
let folders: Record<string, FolderContentsOut>;
let files: Record<string, FileDetailOut>;
let saved: unknown[];

beforeEach(() => {
  folders = {
    root: contents(null, [], [reportsFolder, file('f-top', 'top.csv')]),
    'd-1': contents(reportsFolder, [{ id: 'd-1', name: 'Reports' }], [file('f-cust', 'customers.csv', 'd-1'), file('f-notes', 'notes.txt', 'd-1')]),
  };
  files = {
    'f-cust': { ...file('f-cust', 'customers.csv', 'd-1'), path: [{ id: 'd-1', name: 'Reports' }] },
  };
  saved = [];
  server.use(
    http.get(api('/workflows/w-1/steps/:stepId/variable-fields'), () => HttpResponse.json({ variables: [], fields: [], notes: [], preview_step_ids: [] })),
    http.get(api('/files/folders/:id'), ({ params }) => {
      const found = folders[params.id as string];
      return found ? HttpResponse.json(found) : HttpResponse.json({ detail: 'Folder not found.' }, { status: 404 });
    }),
    http.get(api('/files/files/:id'), ({ params }) => {
      const found = files[params.id as string];
      return found ? HttpResponse.json(found) : HttpResponse.json({ detail: 'File not found.' }, { status: 404 });
    }),
    http.patch(api('/workflow-steps/:stepId/param-inputs/partial'), async ({ request }) => {
      const body = (await request.json()) as { param_inputs: Record<string, unknown> };
      saved.push(body);
      return HttpResponse.json({ ...step('import_csv', body.param_inputs), workflow_version: 4 });
    }),
  );
});

const param = (name: string, type: 'file' | 'folder', label: string, extra: Partial<StepInfoOut['params'][number]> = {}) => ({
  name,
  type,
  label,
  help: `${label} help`,
  required: true,
  ...extra,
});
const stepInfo = (id: string, name: string, params: StepInfoOut['params']): StepInfoOut => ({
  id,
  name,
  description: name,
  category: 'source',
  tags: [],
  params,
  inputs: { min: 0, max: 0 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: '' },
  customized: false,
});
const importCsv = stepInfo('import_csv', 'Import CSV', [param('file', 'file', 'CSV file', { accept: ['.csv'] })]);
const importFolder = stepInfo('import_folder', 'Import folder', [param('folder', 'folder', 'Folder')]);
const step = (step_type: string, param_inputs: Record<string, unknown> = {}): StepOut => ({
  id: 's-1',
  workflow_id: 'w-1',
  step_type,
  name: step_type,
  param_inputs,
  inputs: [],
  position: { x: 0, y: 0 },
});

function renderInspector(info: StepInfoOut, values: Record<string, unknown> = {}, route = '/') {
  const write: ComponentProps<typeof StepInspector>['write'] = async (send) => send(3);
  return renderWithProviders(
    <StepInspector workflowId="w-1" step={step(info.id, values)} info={info} write={write} onClose={jest.fn()} onDelete={jest.fn()} onDuplicate={jest.fn()} />,
    { route },
  );
}

/** The field itself (a read-only text box named by its label), not the buttons beside it. */
const fieldNamed = (label: string) => screen.getByRole('textbox', { name: new RegExp(`^${label}`) });
const picker = () => screen.findByRole('dialog', { name: /CSV file|Folder/ });
const entries = (dialog: HTMLElement) => within(dialog).findByRole('list', { name: 'Folder contents' });

describe('file param picker', () => {
  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 2.5 s here beside the other worker (2026-11-28).
  it('browses into a folder, chooses a CSV by name, shows that name and saves its id', async () => {
    const { user } = renderInspector(importCsv);
    const field = fieldNamed('CSV file');
    expect(field).toHaveAttribute('placeholder', 'No file chosen');

    await user.click(screen.getByRole('button', { name: 'Choose CSV file' }));
    const dialog = await picker();
    expect(within(dialog).getByText('Open folders and choose a .csv file.')).toBeInTheDocument();
    await user.click(within(await entries(dialog)).getByRole('button', { name: 'Reports' }));
    await user.click(await within(dialog).findByRole('button', { name: 'customers.csv' }));
    expect(within(dialog).getByText('Selected: customers.csv')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Choose file' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(field).toHaveValue('customers.csv');
    expect(screen.getByText('In My files / Reports')).toBeInTheDocument();
    expect(screen.queryByText('f-cust')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(saved).toEqual([{ param_inputs: { file: 'f-cust' } }]));
  }, 15_000);

  it('does not let a file the step cannot read be chosen', async () => {
    const { user } = renderInspector(importCsv);
    await user.click(screen.getByRole('button', { name: 'Choose CSV file' }));
    const dialog = await picker();
    await user.click(within(await entries(dialog)).getByRole('button', { name: 'Reports' }));
    const notes = await within(dialog).findByRole('button', { name: 'notes.txt' });
    expect(notes).toHaveAttribute('aria-disabled', 'true');
    expect(notes).toHaveAccessibleDescription('2 KB · not a .csv file');
    await user.click(notes);
    await user.dblClick(notes);
    expect(within(dialog).getByText('No file selected')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Choose file' })).toBeDisabled();
    // The name filter narrows the folder to what is typed.
    await user.type(within(dialog).getByRole('textbox', { name: 'Filter by name' }), 'CUST');
    const narrowed = await entries(dialog);
    expect(within(narrowed).getByRole('button', { name: 'customers.csv' })).toBeInTheDocument();
    expect(within(narrowed).queryByRole('button', { name: 'notes.txt' })).not.toBeInTheDocument();
  });

  it('chooses the folder being browsed for a folder param', async () => {
    const { user } = renderInspector(importFolder);
    await user.click(screen.getByRole('button', { name: 'Choose Folder' }));
    const dialog = await picker();
    // The top level is not a folder one can name.
    expect(await within(dialog).findByText('Open a folder to choose it.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Choose this folder' })).toBeDisabled();
    await user.click(within(await entries(dialog)).getByRole('button', { name: 'Reports' }));
    expect(await within(dialog).findByText('Selected: Reports')).toBeInTheDocument();
    // Files are there to recognise the folder by, not to choose.
    expect(within(dialog).getByRole('button', { name: 'customers.csv' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Choose this folder' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fieldNamed('Folder')).toHaveValue('Reports');
    expect(screen.getByText('In My files')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(saved).toEqual([{ param_inputs: { folder: 'd-1' } }]));
  });

  it('names the saved file when the step opens, and says so (in either language) when it is gone', async () => {
    const first = renderInspector(importCsv, { file: 'f-cust' });
    expect(await screen.findByDisplayValue('customers.csv')).toBeInTheDocument();
    // Reopened, the picker starts where the file is, with it selected and ready to choose again.
    await first.user.click(screen.getByRole('button', { name: 'Change CSV file' }));
    const dialog = await picker();
    expect(await within(dialog).findByText('Selected: customers.csv')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Choose file' })).toBeEnabled();
    first.unmount();

    const gone = renderInspector(importCsv, { file: 'f-deleted' });
    expect(await screen.findByDisplayValue('File not found: choose another')).toBeInTheDocument();
    expect(screen.queryByDisplayValue('f-deleted')).not.toBeInTheDocument();
    // Not a failure to report: no notice about the 404.
    expect(screen.queryByText('File not found.')).not.toBeInTheDocument();
    gone.unmount();

    renderInspector(importCsv, { file: 'f-deleted' }, '/cn');
    expect(await screen.findByDisplayValue('找不到文件：请另选一个')).toBeInTheDocument();
  });
});

// ---- uploading from inside the picker ----

declare const require: (id: 'node:buffer') => { File: typeof File };
const NodeFile = require('node:buffer').File;

class FakeXhr {
  static all: FakeXhr[] = [];
  url = '';
  upload = { onprogress: null as ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  statusText = '';
  responseText = '';
  constructor() {
    FakeXhr.all.push(this);
  }
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  send() {}
  abort() {
    this.onabort?.();
  }
  finish(body: unknown) {
    this.status = 201;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

describe('uploading from the file picker', () => {
  const realXhr = window.XMLHttpRequest;
  beforeEach(() => {
    FakeXhr.all = [];
    (window as unknown as { XMLHttpRequest: unknown }).XMLHttpRequest = FakeXhr;
  });
  afterEach(() => {
    window.XMLHttpRequest = realXhr;
  });

  it('uploads into the folder being browsed and selects the uploaded CSV, ready to choose', async () => {
    const { user } = renderInspector(importCsv);
    await user.click(screen.getByRole('button', { name: 'Choose CSV file' }));
    const dialog = await picker();
    await user.click(within(await entries(dialog)).getByRole('button', { name: 'Reports' }));
    await within(dialog).findByRole('button', { name: 'customers.csv' });

    await user.upload(within(dialog).getByTestId('upload-files-input'), new NodeFile(['id,city\n1,Paris\n'], 'fresh.csv') as unknown as File);
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    expect(FakeXhr.all[0].url).toMatch(/\/files\/\?folder_id=d-1$/);
    expect(within(dialog).getByRole('list', { name: 'Uploads' })).toHaveTextContent('fresh.csv');

    const fresh = file('f-fresh', 'fresh.csv', 'd-1');
    folders['d-1'] = { ...folders['d-1'], items: [...folders['d-1'].items, fresh], total: 3, file_count: 3 };
    FakeXhr.all[0].finish({ items: [{ ...fresh, type: undefined }], message: 'Uploaded.' });

    expect(await within(dialog).findByRole('button', { name: 'fresh.csv' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(dialog).getByText('Selected: fresh.csv')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Choose file' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fieldNamed('CSV file')).toHaveValue('fresh.csv');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(saved).toEqual([{ param_inputs: { file: 'f-fresh' } }]));
  });
});
