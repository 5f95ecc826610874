import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api } from '../../test/handlers';
import { renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import type { Video } from './videosTypes';

const videos: Video[] = [
  {
    id: 'v-1',
    title: 'Your first workflow',
    description: 'Create a workflow, add an Import CSV step and a filter, and run it over a file.',
    url: '/tutorials/first-workflow.webm',
    thumbnail_url: '/tutorials/first-workflow.jpg',
    duration_seconds: 60,
    category: 'getting_started',
    locale: 'en',
  },
  {
    id: 'v-2',
    title: 'Agents in five minutes',
    description: 'Ask the assistant to build a step for you.',
    url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    thumbnail_url: null,
    duration_seconds: 300,
    category: 'agents',
    locale: 'en',
  },
];

/** The public list as the server answers it: published ones of the asked language and category. */
function serveVideos(all: Video[], asked: URLSearchParams[], authorization: (string | null)[] = []) {
  server.use(
    http.get(api('/videos/'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      asked.push(query);
      authorization.push(request.headers.get('authorization'));
      const items = all.filter((v) => v.locale === query.get('locale') && (!query.get('category') || v.category === query.get('category')));
      return HttpResponse.json({ items, total: items.length, page: 1, page_size: 50 });
    }),
  );
}

describe('videos page', () => {
  // Over Jest’s 5 s on a loaded machine: the videos page's first render in this file, filtered and played (past 5 s in CI, 2026-11-28).
  it('is public: visitors see the tutorials, filter them by category and play one', async () => {
    const asked: URLSearchParams[] = [];
    const authorization: (string | null)[] = [];
    serveVideos(videos, asked, authorization);
    const { user } = renderApp({ route: '/videos' });

    const list = await screen.findByRole('list', { name: 'Tutorial videos' });
    const first = within(list).getByRole('listitem', { name: 'Your first workflow' });
    expect(within(first).getByText('Getting started')).toBeInTheDocument();
    expect(within(first).getByText('1:00')).toBeInTheDocument();
    expect(within(list).getByRole('listitem', { name: 'Agents in five minutes' })).toBeInTheDocument();
    expect(asked[0].get('locale')).toBe('en');
    expect(authorization[0]).toBeNull();
    // The visitor's header, not the app's.
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Agents' }));
    await waitFor(() => expect(within(list).queryByRole('listitem', { name: 'Your first workflow' })).not.toBeInTheDocument());
    expect(asked.at(-1)?.get('category')).toBe('agents');
    expect(screen.getByRole('button', { name: 'Agents' })).toHaveAttribute('aria-pressed', 'true');

    // A YouTube link plays in YouTube's own player.
    await user.click(within(list).getByRole('button', { name: 'Play Agents in five minutes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Agents in five minutes' });
    expect(within(dialog).getByTitle('Agents in five minutes')).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // A file on this site plays in the page's own player.
    await user.click(screen.getByRole('button', { name: 'All' }));
    await user.click(await within(list).findByRole('button', { name: 'Play Your first workflow' }));
    const player = await screen.findByLabelText('Your first workflow', { selector: 'video' });
    expect(player).toHaveAttribute('src', '/tutorials/first-workflow.webm');
    expect(player).toHaveAttribute('controls');
  }, 15_000);

  it('lists the Chinese tutorials on the Chinese page, in Chinese', async () => {
    const asked: URLSearchParams[] = [];
    serveVideos(
      [...videos, { ...videos[0], id: 'v-3', title: '创建第一个工作流', description: '新建工作流，添加“导入 CSV”和筛选步骤，并在文件上运行。', locale: 'cn' }],
      asked,
    );
    renderApp({ route: '/cn/videos' });
    const list = await screen.findByRole('list', { name: '教程视频' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(within(list).getByRole('listitem', { name: '创建第一个工作流' })).toHaveTextContent('入门');
    expect(screen.getByRole('heading', { level: 1, name: '视频教程' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '智能助手' })).toBeInTheDocument();
    expect(asked[0].get('locale')).toBe('cn');
  });
});
