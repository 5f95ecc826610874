import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router-dom';
import type { FolderContentsOut } from '../../../server/src/modules/files/files.schemas';
import { api } from '../../test/handlers';
import { renderWithProviders, signedInState, currentLocation } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { FilesPage } from './FilesPage';

const at = '2026-03-14T10:00:00.000Z';
const storage = { used_bytes: 3 * 1024 * 1024, quota_bytes: 10 * 1024 ** 3, max_file_bytes: 5 * 1024 ** 3 };
const file = (id: string, name: string, size = 100, folder_id: string | null = null) =>
  ({ type: 'file', id, name, folder_id, size, content_type: 'text/csv', checksum_sha256: 'a'.repeat(64), created_at: at, updated_at: at }) as const;
const folder = (id: string, name: string, parent_id: string | null = null) =>
  ({ type: 'folder', id, name, parent_id, created_at: at, updated_at: at }) as const;

const root: FolderContentsOut = {
  folder: null,
  path: [],
  items: [folder('d-1', 'Reports'), file('f-1', 'a.csv'), file('f-2', 'b.csv'), file('f-3', 'c.csv'), file('f-4', 'd.csv')],
  total: 5,
  page: 1,
  page_size: 50,
  folder_count: 1,
  file_count: 4,
  storage,
};
const reports: FolderContentsOut = {
  folder: { id: 'd-1', name: 'Reports', parent_id: null, created_at: at, updated_at: at },
  path: [{ id: 'd-1', name: 'Reports' }],
  items: [folder('d-2', 'Q1', 'd-1'), file('f-9', 'summary.csv', 2048, 'd-1')],
  total: 2,
  page: 1,
  page_size: 50,
  folder_count: 1,
  file_count: 1,
  storage,
};

function useFolders(extra: Record<string, FolderContentsOut> = {}) {
  const folders: Record<string, FolderContentsOut> = { root, 'd-1': reports, ...extra };
  server.use(
    http.get(api('/files/folders/:id'), ({ params }) => {
      const found = folders[params.id as string];
      return found ? HttpResponse.json(found) : HttpResponse.json({ detail: 'Folder not found.' }, { status: 404 });
    }),
  );
}

function renderFiles(route = '/files') {
  return renderWithProviders(
    <Routes>
      <Route path="/files" element={<FilesPage />} />
      <Route path="/files/:folderId" element={<FilesPage />} />
      <Route path="/workflows" element={<p>workflows</p>} />
    </Routes>,
    { route, preloadedState: signedInState() },
  );
}

const list = () => screen.getByRole('table', { name: 'Folder contents' });

/** Chooses an item of a row's "…" menu by keyboard: Ark's pointer highlighting does not run under
 *  jsdom (see App.test.tsx); a real browser clicks fine (the e2e journey does). */
async function chooseAction(user: ReturnType<typeof renderFiles>['user'], itemName: string, action: string) {
  await user.click(await screen.findByRole('button', { name: `Actions for ${itemName}` }));
  const menu = await screen.findByRole('menu');
  await waitFor(() => expect(menu).toHaveFocus());
  const items = within(menu).getAllByRole('menuitem');
  const index = items.findIndex((item) => item.textContent === action);
  expect(index).toBeGreaterThanOrEqual(0);
  // One key at a time, each after the menu shows its highlight: under load Ark's state machine can
  // still be settling the open when keys arrive, and Enter then chose the wrong item (CI, stop 24).
  await user.keyboard('{Home}');
  for (let step = 0; step < index; step++) {
    await waitFor(() => expect(items[step]).toHaveAttribute('data-highlighted'));
    await user.keyboard('{ArrowDown}');
  }
  await waitFor(() => expect(items[index]).toHaveAttribute('data-highlighted'));
  await user.keyboard('{Enter}');
}

describe('FilesPage', () => {
  beforeEach(() => localStorage.clear());

  it('shows the folder from the API: entries, counts, storage, the tree', async () => {
    useFolders();
    renderFiles();
    await screen.findByRole('table', { name: 'Folder contents' });
    expect(await within(list()).findByRole('link', { name: 'Reports' })).toHaveAttribute('href', '/files/d-1');
    expect(within(list()).getByRole('button', { name: 'a.csv' })).toBeInTheDocument();
    expect(screen.getByText('1 folder · 4 files')).toBeInTheDocument();
    expect(screen.getByText(/of 10 GB used/)).toHaveTextContent('3 MB of 10 GB used');
    // The sidebar tree shows from the lg breakpoint; jsdom matches no media query.
    const tree = screen.getByRole('navigation', { name: 'Folders', hidden: true });
    expect(await within(tree).findByRole('link', { name: 'Reports', hidden: true })).toBeInTheDocument();
  });

  it('pages through a folder of more than one page, in the list and in the grid', async () => {
    const asked: number[] = [];
    server.use(
      http.get(api('/files/folders/:id'), ({ request }) => {
        // The sidebar tree asks for the folder too, without a page.
        const pageParam = new URL(request.url).searchParams.get('page');
        const page = Number(pageParam ?? 1);
        if (pageParam) asked.push(page);
        return HttpResponse.json({ ...root, items: page === 1 ? root.items : [file('f-51', 'last.csv')], total: 51, page });
      }),
    );
    const { user } = renderFiles();
    expect(within(await screen.findByRole('table', { name: 'Folder contents' })).getByRole('button', { name: 'a.csv' })).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /previous/i })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: /next/i }));
    expect(await within(list()).findByRole('button', { name: 'last.csv' })).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(asked).toEqual([1, 2]);

    await user.click(screen.getByRole('button', { name: 'Grid view' }));
    const grid = screen.getByRole('list', { name: 'Folder contents' });
    expect(within(grid).getByRole('button', { name: 'last.csv' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /previous/i }));
    expect(await within(grid).findByRole('button', { name: 'a.csv' })).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
  });

  it('builds breadcrumbs from the path and links back to the top', async () => {
    useFolders();
    const { user } = renderFiles('/files/d-1');
    const crumbs = await screen.findByRole('navigation', { name: 'Folder path' });
    await within(crumbs).findByText('Reports');
    expect(within(crumbs).getByText('Reports')).toHaveAttribute('aria-current', 'page');
    await user.click(within(crumbs).getByRole('link', { name: 'My files' }));
    expect(currentLocation()).toBe('/files');
    expect(await within(list()).findByRole('button', { name: 'a.csv' })).toBeInTheDocument();
  });

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 2.7 s here beside the other worker (2026-11-28).
  it('renames inline: Enter saves, Escape cancels', async () => {
    useFolders();
    let renamed: unknown = null;
    server.use(
      http.put(api('/files/files/:id/rename'), async ({ request, params }) => {
        renamed = { id: params.id, ...((await request.json()) as object) };
        return HttpResponse.json({ ...file('f-1', 'renamed.csv'), message: 'Renamed.' });
      }),
    );
    const { user } = renderFiles();
    await chooseAction(user, 'a.csv', 'Rename');
    const input = await screen.findByRole('textbox', { name: 'New name for a.csv' });
    await user.keyboard('{Escape}');
    expect(input).not.toBeInTheDocument();
    expect(renamed).toBeNull();

    await chooseAction(user, 'a.csv', 'Rename');
    const again = await screen.findByRole('textbox', { name: 'New name for a.csv' });
    await user.clear(again);
    await user.type(again, 'renamed.csv{Enter}');
    await waitFor(() => expect(renamed).toEqual({ id: 'f-1', name: 'renamed.csv' }));
    expect(await screen.findByText('Renamed.')).toBeInTheDocument();
  }, 15_000);

  it('selects with checkboxes, shift-click ranges and select all', async () => {
    useFolders();
    const { user } = renderFiles();
    await screen.findByRole('button', { name: 'a.csv' });
    await user.click(screen.getByRole('checkbox', { name: 'Select a.csv' }));
    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('checkbox', { name: 'Select d.csv' }));
    await user.keyboard('{/Shift}');
    expect(screen.getByText('4 items selected')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select c.csv' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Reports' })).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(screen.getByText('5 items selected')).toBeInTheDocument();
    // Folders cannot be moved: the move button says so.
    expect(screen.getByRole('button', { name: 'Move' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByText(/items selected/)).not.toBeInTheDocument();
  });

  it('confirms deleting a folder and says how much it contains', async () => {
    useFolders();
    let deleted = '';
    server.use(
      http.delete(api('/files/folders/:id'), ({ params }) => {
        deleted = params.id as string;
        return HttpResponse.json({ deleted_files: 1, deleted_folders: 2, freed_bytes: 2048, message: 'Folder deleted with 1 folder(s) and 1 file(s).' });
      }),
    );
    const { user } = renderFiles();
    await chooseAction(user, 'Reports', 'Delete');
    const dialog = await screen.findByRole('alertdialog');
    expect(await within(dialog).findByText('"Reports" contains 1 folder and 1 file. Everything in it will be deleted for good.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(deleted).toBe('');

    await chooseAction(user, 'Reports', 'Delete');
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toBe('d-1'));
    expect(await screen.findByText('Folder deleted with 1 folder(s) and 1 file(s).')).toBeInTheDocument();
  });

  it('moves the selected files to a folder picked in the tree', async () => {
    useFolders();
    const moves: Array<{ id: string; folder_id: string | null }> = [];
    server.use(
      http.put(api('/files/files/:id/move'), async ({ request, params }) => {
        moves.push({ id: params.id as string, ...((await request.json()) as { folder_id: string | null }) });
        return HttpResponse.json(file(params.id as string, 'x.csv', 1, 'd-1'));
      }),
    );
    const { user } = renderFiles();
    await user.click(await screen.findByRole('checkbox', { name: 'Select a.csv' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select b.csv' }));
    await user.click(screen.getByRole('button', { name: 'Move' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Reports' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move to Reports' }));
    await waitFor(() =>
      expect(moves).toEqual([
        { id: 'f-1', folder_id: 'd-1' },
        { id: 'f-2', folder_id: 'd-1' },
      ]),
    );
    expect(await screen.findByText('2 files moved.')).toBeInTheDocument();
  });

  it('remembers the grid view and sends "use in a workflow" to /workflows?file_id=', async () => {
    useFolders();
    const { user, unmount } = renderFiles();
    await screen.findByRole('button', { name: 'a.csv' });
    await user.click(screen.getByRole('button', { name: 'Grid view' }));
    expect(screen.getByRole('list', { name: 'Folder contents' })).toBeInTheDocument();
    unmount();
    const second = renderFiles();
    expect(await screen.findByRole('list', { name: 'Folder contents' })).toBeInTheDocument();
    await chooseAction(second.user, 'b.csv', 'Use in a workflow');
    expect(await screen.findByText('workflows')).toBeInTheDocument();
    expect(currentLocation()).toMatch(/^\/workflows\?file_id=f-2&file_name=/);
  });

  it('offers "use in a workflow" only for files an import step can read', async () => {
    useFolders({
      'd-7': {
        ...reports,
        folder: { ...reports.folder!, id: 'd-7', name: 'Mixed' },
        path: [{ id: 'd-7', name: 'Mixed' }],
        items: [file('f-20', 'big.bin', 10, 'd-7'), file('f-21', 'Sales.CSV', 10, 'd-7'), file('f-22', 'Orders.xlsx', 10, 'd-7')],
        folder_count: 0,
        file_count: 3,
        total: 3,
      },
    });
    const { user } = renderFiles('/files/d-7');
    const itemsOf = async (name: string) => {
      await user.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
      const menu = await screen.findByRole('menu');
      const names = within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent);
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
      return names;
    };
    expect(await itemsOf('big.bin')).not.toContain('Use in a workflow');
    expect(await itemsOf('Sales.CSV')).toContain('Use in a workflow');
    expect(await itemsOf('Orders.xlsx')).toContain('Use in a workflow');
  });

  it('creates a folder in the folder being shown', async () => {
    useFolders();
    let body: unknown = null;
    server.use(
      http.post(api('/files/folders'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(
          { id: 'd-5', name: 'Raw', parent_id: 'd-1', created_at: at, updated_at: at, message: 'Folder "Raw" created.' },
          { status: 201 },
        );
      }),
    );
    const { user } = renderFiles('/files/d-1');
    await user.click(await screen.findByRole('button', { name: 'New folder' }));
    await user.type(await screen.findByRole('textbox', { name: 'Folder name' }), 'Raw{Enter}');
    await waitFor(() => expect(body).toEqual({ name: 'Raw', parent_id: 'd-1' }));
    expect(await screen.findByText('Folder "Raw" created.')).toBeInTheDocument();
  });
});
