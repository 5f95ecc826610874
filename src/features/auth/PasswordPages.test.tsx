import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';

describe('forgot-password page', () => {
  it('sends the email and shows the server message and a confirmation', async () => {
    let sent: unknown = null;
    server.use(
      http.post(api('/auth/password-reset-request'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: 'If the account exists, a reset link has been sent.' }, { status: 202 });
      }),
    );
    const { user } = renderApp({ route: '/forgot-password' });
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent('If the account exists, a reset link has been sent.');
    expect(sent).toEqual({ email: 'ada@example.com' });
    expect(screen.getByText('Check your email')).toBeInTheDocument();
  });
});

describe('reset-password page', () => {
  it('without a token explains the problem and links to a new request', async () => {
    renderApp({ route: '/reset-password' });
    expect(await screen.findByText('This reset link is incomplete')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a new reset link' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('requires matching passwords', async () => {
    const { user } = renderApp({ route: '/reset-password?token=abc' });
    await user.type(await screen.findByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm password'), 'new-password-2');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(screen.getByText('The passwords do not match.')).toBeInTheDocument();
  });

  it('sets the password with the token and goes to sign-in', async () => {
    let sent: unknown = null;
    server.use(
      http.post(api('/auth/reset-password'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: 'Your password has been changed.' });
      }),
    );
    const { user } = renderApp({ route: '/reset-password?token=abc' });
    await user.type(await screen.findByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm password'), 'new-password-1{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/login'));
    expect(sent).toEqual({ token: 'abc', new_password: 'new-password-1' });
    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been changed.');
  });

  it('shows the server error for a bad token', async () => {
    server.use(http.post(api('/auth/reset-password'), () => HttpResponse.json({ detail: 'This reset link is invalid or has expired.' }, { status: 400 })));
    const { user } = renderApp({ route: '/reset-password?token=old' });
    await user.type(await screen.findByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm password'), 'new-password-1{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent('This reset link is invalid or has expired.');
    expect(currentLocation()).toBe('/reset-password?token=old');
  });

  it('shows why the server refused a guessable new password under that field', async () => {
    const msg =
      'This password is too easy to guess: it contains your email, your name or the name of this site. Add another word or two; uncommon words work best.';
    server.use(http.post(api('/auth/reset-password'), () => HttpResponse.json({ errors: [{ msg, loc: ['body', 'new_password'] }] }, { status: 422 })));
    const { user } = renderApp({ route: '/reset-password?token=abc' });
    const password = await screen.findByLabelText('New password');
    await user.type(password, 'lovelace1815');
    await user.type(screen.getByLabelText('Confirm password'), 'lovelace1815{Enter}');
    const field = password.closest('[data-part="root"]') as HTMLElement;
    expect(await within(field).findByText(msg)).toBeInTheDocument();
    expect(within(screen.getByLabelText('Confirm password').closest('[data-part="root"]') as HTMLElement).queryByText(msg)).not.toBeInTheDocument();
    expect(currentLocation()).toBe('/reset-password?token=abc');
  });
});
