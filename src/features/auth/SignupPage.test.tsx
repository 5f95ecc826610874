import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api, testUser } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';

describe('sign-up page', () => {
  it('creates the account, shows the server message and hands the email to sign-in', async () => {
    let sent: unknown = null;
    server.use(
      http.post(api('/auth/signup'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ user: testUser, message: 'Account created. You can sign in now.' }, { status: 201 });
      }),
    );
    const { user } = renderApp({ route: '/signup' });
    await user.type(await screen.findByLabelText('Name'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'analytical{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/login'));
    expect(sent).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', password: 'analytical' });
    expect(await screen.findByRole('status')).toHaveTextContent('Account created. You can sign in now.');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
  });

  it('explains a short password and missing fields without calling the server', async () => {
    const { user } = renderApp({ route: '/signup' });
    expect(await screen.findByText('At least 8 characters.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByText('Use at least 8 characters.')).toBeInTheDocument();
    expect(screen.getByText('Enter your name.')).toBeInTheDocument();
    expect(screen.getByText('Enter your email address.')).toBeInTheDocument();
    expect(currentLocation()).toBe('/signup');
  });

  it('shows a duplicate email error from the server and stays', async () => {
    server.use(http.post(api('/auth/signup'), () => HttpResponse.json({ detail: 'An account with this email already exists.' }, { status: 409 })));
    const { user } = renderApp({ route: '/signup' });
    await user.type(await screen.findByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'analytical');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('status')).toHaveTextContent('An account with this email already exists.');
    expect(currentLocation()).toBe('/signup');
  });
});
