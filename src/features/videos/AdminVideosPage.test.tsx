import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api, testUser } from '../../test/handlers';
import { renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import type { AdminVideo } from './videosTypes';

const seeded: AdminVideo = {
  id: 'v-1',
  title: 'Your first workflow',
  description: 'Create a workflow and run it.',
  url: '/tutorials/first-workflow.webm',
  thumbnail_url: '/tutorials/first-workflow.jpg',
  duration_seconds: 60,
  category: 'getting_started',
  locale: 'en',
  position: 0,
  status: 'hidden',
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
};

beforeEach(() => {
  localStorage.setItem('accessToken', 'good');
  server.use(http.get(api('/users/me'), () => HttpResponse.json({ ...testUser, role: 'admin' })));
});

describe('videos (admin)', () => {
  // Over Jest’s 5 s: the admin area's first render in this file, then add (refused, then saved) and
  // delete through two dialogs (5 s alone with the long values pasted).
  it('lists hidden videos too, adds one, and deletes one after asking', async () => {
    const all: AdminVideo[] = [seeded];
    let created: unknown = null;
    server.use(
      http.get(api('/videos/admin/all'), () => HttpResponse.json({ items: all, total: all.length, page: 1, page_size: 100 })),
      http.post(api('/videos/admin'), async ({ request }) => {
        created = await request.json();
        all.push({
          ...(created as Omit<AdminVideo, 'id' | 'created_at' | 'updated_at'>),
          id: 'v-2',
          created_at: '2026-11-24T08:00:00.000Z',
          updated_at: '2026-11-24T08:00:00.000Z',
        });
        return HttpResponse.json({ ...all[1], message: 'Video added.' }, { status: 201 });
      }),
      http.delete(api('/videos/admin/v-1'), () => {
        all.splice(0, 1);
        return HttpResponse.json({ message: 'Video deleted.' });
      }),
    );
    const { user } = renderApp({ route: '/admin/videos' });

    const table = await screen.findByRole('table', { name: 'Tutorial videos' });
    expect(within(within(table).getByRole('row', { name: 'Your first workflow' })).getByText('Hidden')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Videos' })).toHaveAttribute('aria-selected', 'true');

    await user.click(screen.getByRole('button', { name: 'Add video' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a video' });
    // Long values are pasted (typed, each keystroke re-renders the dialog: 3–5 s alone, past 20 s in CI).
    const paste = async (label: string, text: string) => {
      await user.click(within(dialog).getByLabelText(label));
      await user.paste(text);
    };
    // A URL and a length the server would refuse are caught here first.
    await paste('Title', 'Agents in five minutes');
    await paste('Video URL', 'ftp://example.com/agents.mp4');
    await user.type(within(dialog).getByLabelText('Duration (seconds)'), '86401');
    await user.click(within(dialog).getByRole('button', { name: 'Add video' }));
    expect(within(dialog).getByText('Enter an http(s) address or a path starting with /.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the length in whole seconds, at most 86400 (one day).')).toBeInTheDocument();
    expect(created).toBeNull();

    await user.clear(within(dialog).getByLabelText('Duration (seconds)'));
    await user.type(within(dialog).getByLabelText('Duration (seconds)'), '300');

    await user.clear(within(dialog).getByLabelText('Video URL'));
    await paste('Video URL', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    await paste('Description', 'Ask the assistant to build a step.');
    await user.selectOptions(within(dialog).getByLabelText('Category'), 'Agents');
    await user.selectOptions(within(dialog).getByLabelText('Language'), '中文');
    await user.clear(within(dialog).getByLabelText('Position'));
    await user.type(within(dialog).getByLabelText('Position'), '3');
    await user.click(within(dialog).getByRole('button', { name: 'Add video' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('status')).toHaveTextContent('Video added.');
    expect(created).toEqual({
      title: 'Agents in five minutes',
      description: 'Ask the assistant to build a step.',
      url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      thumbnail_url: null,
      duration_seconds: 300,
      category: 'agents',
      locale: 'cn',
      position: 3,
      status: 'published',
    });
    const row = await within(table).findByRole('row', { name: 'Agents in five minutes' });
    expect(within(row).getByText('Published')).toBeInTheDocument();
    expect(within(row).getByText('5:00')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete Your first workflow' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this video?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    // A notice of its own (the one saying “Video added.” may still be on screen beside it).
    expect((await screen.findByText('Video deleted.')).closest('[role="status"]')).not.toBeNull();
    await waitFor(() => expect(within(table).queryByRole('row', { name: 'Your first workflow' })).not.toBeInTheDocument());
  }, 20_000);
});
