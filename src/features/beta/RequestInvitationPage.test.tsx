import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';

const THANKS = 'Thank you: your request to join the beta has been received.';

describe('asking for an invitation code, signed out', () => {
  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 3.0 s here beside the other worker (2026-11-28).
  it('sends the email, name and use case (no token: a public call), then says where the code will go', async () => {
    let sent: unknown = null;
    let authorization: string | null = 'unset';
    server.use(
      http.post(api('/beta-interest/visitor-request'), async ({ request }) => {
        sent = await request.json();
        authorization = request.headers.get('authorization');
        return HttpResponse.json({ status: 'pending', message: THANKS });
      }),
    );
    const { user } = renderApp({ route: '/request-invitation' });
    await user.type(await screen.findByLabelText('Email'), ' vera@example.com ');
    await user.type(screen.getByLabelText('Name (optional)'), 'Vera Visitor');
    await user.type(screen.getByLabelText('What would you use Stepwise for?'), 'Cleaning survey exports');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByRole('heading', { name: 'Request sent' })).toBeInTheDocument();
    expect(screen.getByText(/We will email an invitation code to vera@example.com/)).toBeInTheDocument();
    expect(screen.getByText(THANKS)).toBeInTheDocument();
    expect(sent).toEqual({ email: 'vera@example.com', name: 'Vera Visitor', use_case: 'Cleaning survey exports' });
    expect(authorization).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Create your account' }));
    await waitFor(() => expect(currentLocation()).toBe('/signup'));
  }, 15_000);

  it('checks the email and the use case before calling the server, and bounds every field', async () => {
    let called = false;
    server.use(
      http.post(api('/beta-interest/visitor-request'), () => {
        called = true;
        return HttpResponse.json({ status: 'pending', message: THANKS });
      }),
    );
    const { user } = renderApp({ route: '/request-invitation' });
    await user.type(await screen.findByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(screen.getByText('Enter a valid email address.')).toBeInTheDocument();
    expect(screen.getByText('Tell us what you would use it for.')).toBeInTheDocument();
    expect(called).toBe(false);
    expect(screen.getByLabelText('Email')).toHaveAttribute('maxLength', '254');
    expect(screen.getByLabelText('Name (optional)')).toHaveAttribute('maxLength', '100');
    expect(screen.getByLabelText('What would you use Stepwise for?')).toHaveAttribute('maxLength', '2000');
    expect(screen.getByLabelText('Company (optional)')).toHaveAttribute('maxLength', '200');
  });

  it('shows the server’s refusal under its field, and the notice names the field as the form does', async () => {
    const msg = 'Must be at most 100 characters';
    server.use(http.post(api('/beta-interest/visitor-request'), () => HttpResponse.json({ errors: [{ msg, loc: ['body', 'name'] }] }, { status: 422 })));
    const { user } = renderApp({ route: '/request-invitation' });
    await user.type(await screen.findByLabelText('Email'), 'vera@example.com');
    await user.type(screen.getByLabelText('What would you use Stepwise for?'), 'Surveys');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    const name = screen.getByLabelText('Name (optional)');
    expect(await within(name.closest('[data-part="root"]') as HTMLElement).findByText(msg)).toBeInTheDocument();
    expect(await screen.findByRole('status')).toHaveTextContent(`${msg} (Name)`);
    expect(screen.queryByRole('heading', { name: 'Request sent' })).not.toBeInTheDocument();
  });

  it('is in Chinese on the Chinese site', async () => {
    renderApp({ route: '/cn/request-invitation' });
    expect(await screen.findByRole('heading', { name: '申请邀请码' })).toBeInTheDocument();
    expect(screen.getByLabelText('姓名（可选）')).toBeInTheDocument();
  });

  it('sends a signed-in user to the beta page, where they ask as themselves', async () => {
    localStorage.setItem('accessToken', 'tok');
    renderApp({ route: '/request-invitation' });
    await waitFor(() => expect(currentLocation()).toBe('/beta'));
  });
});
