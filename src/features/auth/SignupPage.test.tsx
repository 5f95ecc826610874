import { screen, waitFor, within } from '@testing-library/react';
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
    await user.type(screen.getByLabelText('Password'), 'analytical engine notes{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/login'));
    expect(sent).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', password: 'analytical engine notes' });
    expect(await screen.findByRole('status')).toHaveTextContent('Account created. You can sign in now.');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
  });

  it('explains a short password and missing fields without calling the server', async () => {
    const { user } = renderApp({ route: '/signup' });
    expect(await screen.findByText('At least 8 characters. A few uncommon words are hard to guess and easy to remember.')).toBeInTheDocument();
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
    await user.type(screen.getByLabelText('Password'), 'analytical engine notes');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('status')).toHaveTextContent('An account with this email already exists.');
    expect(currentLocation()).toBe('/signup');
  });

  it('shows why the server refused a guessable password under the password field, until it is changed', async () => {
    const msg = 'This password is too easy to guess: it is one of the ten most used passwords. Add another word or two; uncommon words work best.';
    server.use(http.post(api('/auth/signup'), () => HttpResponse.json({ errors: [{ msg, loc: ['body', 'password'] }] }, { status: 422 })));
    const { user } = renderApp({ route: '/signup' });
    await user.type(await screen.findByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    const password = screen.getByLabelText('Password');
    await user.type(password, '12345678{Enter}');
    const field = password.closest('[data-part="root"]') as HTMLElement;
    expect(await within(field).findByText(msg)).toBeInTheDocument();
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(within(field).queryByText(/At least 8 characters/)).not.toBeInTheDocument();
    expect(currentLocation()).toBe('/signup');
    await user.type(password, ' and more');
    expect(within(field).queryByText(msg)).not.toBeInTheDocument();
  });

  it('shows the server’s Chinese reason on the Chinese page', async () => {
    const msg = '这个密码太容易被猜到：它是最常用的十个密码之一。再加一两个词，不常见的词最好。';
    let language: string | null = null;
    server.use(
      http.post(api('/auth/signup'), ({ request }) => {
        language = request.headers.get('accept-language');
        return HttpResponse.json({ errors: [{ msg, loc: ['body', 'password'] }] }, { status: 422 });
      }),
    );
    const { user } = renderApp({ route: '/cn/signup' });
    await user.type(await screen.findByLabelText('姓名'), 'Ada');
    await user.type(screen.getByLabelText('邮箱'), 'ada@example.com');
    await user.type(screen.getByLabelText('密码'), '12345678{Enter}');
    expect(await within(screen.getByLabelText('密码').closest('[data-part="root"]') as HTMLElement).findByText(msg)).toBeInTheDocument();
    expect(language).toMatch(/^zh/);
  });
});

describe('sign-up with an invitation code (beta)', () => {
  const inviteOnly = () => server.use(http.get(api('/beta-interest/signup-mode'), () => HttpResponse.json({ invite_only: true })));

  it('asks for the code when sign-up is invite-only, and sends the one from the invitation link', async () => {
    inviteOnly();
    let sent: unknown = null;
    server.use(
      http.post(api('/auth/signup'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ user: testUser, message: 'Account created. You can sign in now.' }, { status: 201 });
      }),
    );
    const { user } = renderApp({ route: '/signup?code=STEP-7K2M-Q9XD' });
    const code = await screen.findByLabelText('Invitation code');
    expect(code).toHaveValue('STEP-7K2M-Q9XD');
    expect(screen.getByText('Sign-up is by invitation during the beta.')).toBeInTheDocument();

    // Without it, nothing is sent.
    await user.clear(code);
    await user.type(screen.getByLabelText('Name'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'analytical engine notes');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByText('Enter your invitation code.')).toBeInTheDocument();
    expect(sent).toBeNull();

    await user.type(code, 'STEP-7K2M-Q9XD{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/login'));
    expect(sent).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', password: 'analytical engine notes', invitation_code: 'STEP-7K2M-Q9XD' });
  });

  it('shows the server’s reason for refusing the code under the code field', async () => {
    inviteOnly();
    const msg = 'This invitation code has expired.';
    server.use(http.post(api('/auth/signup'), () => HttpResponse.json({ errors: [{ msg, loc: ['body', 'invitation_code'] }] }, { status: 422 })));
    const { user } = renderApp({ route: '/signup' });
    const code = await screen.findByLabelText('Invitation code');
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'analytical engine notes');
    await user.type(code, 'STEP-OLD0-CODE{Enter}');
    const field = code.closest('[data-part="root"]') as HTMLElement;
    expect(await within(field).findByText(msg)).toBeInTheDocument();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(currentLocation()).toBe('/signup');
  });

  it('offers the code as optional when anyone may sign up', async () => {
    renderApp({ route: '/signup' });
    expect(await screen.findByLabelText('Invitation code (optional)')).toHaveValue('');
    expect(screen.getByText('If you were given one, e.g. STEP-7K2M-Q9XD.')).toBeInTheDocument();
  });
});
