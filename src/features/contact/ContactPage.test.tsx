import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api, testUser } from '../../test/handlers';
import { renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { fullQuery, pageOf as page, querySummary as summary } from './contactFixtures';
import type { ContactQuerySummary } from './contactTypes';

beforeEach(() => localStorage.setItem('accessToken', 'good'));

describe('contact page', () => {
  // Over Jest’s 5 s at worst: fills and sends the form, then renders the list of queries (2 s alone, 3 s beside the other projects).
  it('sends a query, shows the server’s answer and lists it under “My queries” with its status', async () => {
    const mine: ContactQuerySummary[] = [summary({ id: 'q-old', subject: 'Invoice address', category: 'billing', status: 'answered', reply_count: 1 })];
    let sent: unknown = null;
    server.use(
      http.get(api('/contact/my-queries'), () => HttpResponse.json(page(mine))),
      http.post(api('/contact/submit'), async ({ request }) => {
        sent = await request.json();
        const query = fullQuery({ id: 'q-new', subject: 'Import fails on a large CSV' });
        mine.unshift(summary({ id: 'q-new' }));
        return HttpResponse.json({ query, message: 'Thank you. We usually answer within one working day.' }, { status: 201 });
      }),
    );
    const { user } = renderApp({ route: '/contact' });

    const list = await screen.findByRole('list', { name: 'My queries' });
    const old = within(list).getByRole('listitem', { name: 'Invoice address' });
    expect(within(old).getByText('Answered')).toBeInTheDocument();
    expect(within(old).getByText('1 reply')).toBeInTheDocument();
    expect(within(old).getByRole('link', { name: 'Invoice address' })).toHaveAttribute('href', '/contact/q-old');

    // Nothing is sent without a subject and a message.
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText('Enter a subject.')).toBeInTheDocument();
    expect(screen.getByText('Enter a message.')).toBeInTheDocument();
    expect(sent).toBeNull();

    await user.type(screen.getByLabelText('Subject'), 'Import fails on a large CSV');
    await user.selectOptions(screen.getByLabelText('Category'), 'Technical problem');
    await user.type(screen.getByLabelText('Message'), 'The import stops at row 10,000.');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Thank you. We usually answer within one working day.');
    expect(sent).toEqual({ subject: 'Import fails on a large CSV', category: 'technical', message: 'The import stops at row 10,000.' });
    const added = await within(list).findByRole('listitem', { name: 'Import fails on a large CSV' });
    expect(within(added).getByText('Open')).toBeInTheDocument();
    expect(screen.getByLabelText('Subject')).toHaveValue('');
  }, 15_000);

  it('shows the rate limit refusal and keeps what was typed', async () => {
    server.use(
      http.get(api('/contact/my-queries'), () => HttpResponse.json(page([]))),
      http.post(api('/contact/submit'), () =>
        HttpResponse.json({ detail: 'You have sent 5 messages in the last hour. Please wait a little before sending another.' }, { status: 429 }),
      ),
    );
    const { user } = renderApp({ route: '/contact' });
    expect(await screen.findByText('You have not written to us yet.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Subject'), 'Again');
    await user.type(screen.getByLabelText('Message'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('status')).toHaveTextContent('You have sent 5 messages in the last hour.');
    expect(screen.getByLabelText('Subject')).toHaveValue('Again');
  });
});

describe('one query', () => {
  it('shows the original message and support’s answer, and sends a reply that reopens it', async () => {
    let query = fullQuery({
      status: 'answered',
      reply_count: 1,
      replies: [
        { id: 'r-1', author_role: 'support', author_name: 'Grace (Support)', message: 'Could you send us the file?', created_at: '2026-11-21T09:00:00.000Z' },
      ],
    });
    let replied: unknown = null;
    server.use(
      http.get(api('/contact/q-1'), () => HttpResponse.json(query)),
      http.post(api('/contact/q-1/replies'), async ({ request }) => {
        replied = await request.json();
        query = {
          ...query,
          status: 'open',
          reply_count: 2,
          replies: [
            ...query.replies,
            { id: 'r-2', author_role: 'user', author_name: testUser.name, message: 'Attached, thanks.', created_at: '2026-11-21T10:00:00.000Z' },
          ],
        };
        return HttpResponse.json(query);
      }),
    );
    const { user } = renderApp({ route: '/contact/q-1' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Import fails on a large CSV' })).toBeInTheDocument();
    expect(screen.getByText('Answered')).toBeInTheDocument();
    const thread = screen.getByRole('list', { name: 'Conversation' });
    const messages = within(thread).getAllByRole('listitem');
    expect(messages).toHaveLength(2);
    expect(messages[0]).toHaveTextContent('The import stops at row 10,000.');
    expect(messages[0]).toHaveAccessibleName(testUser.name);
    expect(messages[1]).toHaveTextContent('Could you send us the file?');
    expect(within(messages[1]).getByText('Support')).toBeInTheDocument();
    expect(screen.getByText('Replying opens the query again.')).toBeInTheDocument();
    // The query's text is shown in the thread only, never as a notice.
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Your reply'), 'Attached, thanks.');
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    await waitFor(() => expect(within(thread).getAllByRole('listitem')).toHaveLength(3));
    expect(replied).toEqual({ message: 'Attached, thanks.' });
    expect(within(thread).getAllByRole('listitem')[2]).toHaveTextContent('Attached, thanks.');
    expect(screen.getByText('Open')).toBeInTheDocument();
    expect(screen.getByLabelText('Your reply')).toHaveValue('');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('says so when the query is not there (someone else’s answers 404 the same)', async () => {
    server.use(http.get(api('/contact/q-x'), () => HttpResponse.json({ detail: 'Contact query not found.' }, { status: 404 })));
    renderApp({ route: '/contact/q-x' });
    expect(await screen.findByRole('heading', { name: 'This query could not be found.' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All my queries' })).toHaveAttribute('href', '/contact');
  });
});
