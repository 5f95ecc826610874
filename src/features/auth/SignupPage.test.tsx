import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { accountIn, api, testUser } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';

const signedUp = (message = 'Your account is ready. Welcome to Stepwise!') => HttpResponse.json({ user: testUser, message }, { status: 201 });
const token = () => HttpResponse.json({ access_token: 'new-user-token', token_type: 'bearer', expires_in: 3600 });

describe('sign-up page', () => {
  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 4.5 s here beside the other worker (2026-11-28).
  it('creates the account, signs in with what was typed (form-encoded login) and lands home, signed in', async () => {
    let sent: unknown = null;
    let login: URLSearchParams | null = null;
    server.use(
      http.post(api('/auth/signup'), async ({ request }) => {
        sent = await request.json();
        return signedUp();
      }),
      http.post(api('/auth/login'), async ({ request }) => {
        login = new URLSearchParams(await request.text());
        return token();
      }),
    );
    const { user, store } = renderApp({ route: '/signup' });
    await user.type(await screen.findByLabelText('Name'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    // Pasted, as from a password manager: typed, each keystroke re-scores the password's strength.
    await user.click(screen.getByLabelText('Password'));
    await user.paste('analytical engine notes');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/'));
    expect(sent).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', password: 'analytical engine notes' });
    expect(login!.get('username')).toBe('ada@example.com');
    expect(login!.get('password')).toBe('analytical engine notes');
    expect(localStorage.getItem('accessToken')).toBe('new-user-token');
    expect(store.getState().auth).toMatchObject({ isAuthenticated: true, user: testUser });
    expect(await screen.findByRole('heading', { name: 'Welcome back, Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByText('Your account is ready. Welcome to Stepwise!')).toBeInTheDocument();
  }, 15_000);

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 2.5 s here beside the other worker (2026-11-28).
  it('on the Chinese site lands on the Chinese home page', async () => {
    server.use(
      http.post(api('/auth/signup'), () => signedUp('账号已创建，欢迎使用 Stepwise！')),
      http.post(api('/auth/login'), () => token()),
      // Signed up from a Chinese page, the account is Chinese (the server takes the request's
      // language): the account's language, which wins once signed in, keeps the user under /cn.
      accountIn('cn'),
    );
    const { user } = renderApp({ route: '/cn/signup' });
    await user.type(await screen.findByLabelText('姓名'), 'Ada');
    await user.type(screen.getByLabelText('邮箱'), 'ada@example.com');
    await user.type(screen.getByLabelText('密码'), 'analytical engine notes{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/cn'));
    expect(localStorage.getItem('accessToken')).toBe('new-user-token');
  }, 15_000);

  it('when signing in right after fails, sends the user to sign in with the email filled in and says why', async () => {
    server.use(
      http.post(api('/auth/signup'), () => signedUp()),
      http.post(api('/auth/login'), () => HttpResponse.json({ detail: 'Too many attempts. Please wait a moment and try again.' }, { status: 429 })),
    );
    const { user } = renderApp({ route: '/signup' });
    await user.type(await screen.findByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'analytical engine notes{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/login'));
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(await screen.findByText('Too many attempts. Please wait a moment and try again.')).toBeInTheDocument();
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('sends a signed-in user on to the home page', async () => {
    localStorage.setItem('accessToken', 'tok');
    renderApp({ route: '/signup' });
    await waitFor(() => expect(currentLocation()).toBe('/'));
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

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 3.0 s here beside the other worker (2026-11-28).
  it('asks for the code when sign-up is invite-only, and sends the one from the invitation link', async () => {
    inviteOnly();
    let sent: unknown = null;
    server.use(
      http.post(api('/auth/signup'), async ({ request }) => {
        sent = await request.json();
        return signedUp();
      }),
      http.post(api('/auth/login'), () => token()),
    );
    const { user } = renderApp({ route: '/signup?code=STEP-7K2M-Q9XD' });
    const code = await screen.findByLabelText('Invitation code');
    expect(code).toHaveValue('STEP-7K2M-Q9XD');
    expect(screen.getByText('Sign-up is by invitation during the beta.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    // Pasted, as from a password manager: typed, each keystroke re-scores the password's strength.
    await user.click(screen.getByLabelText('Password'));
    await user.paste('analytical engine notes');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/'));
    expect(sent).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', password: 'analytical engine notes', invitation_code: 'STEP-7K2M-Q9XD' });
  }, 15_000);

  it('does not demand a code itself: an admin email signs up without one, and the server decides', async () => {
    inviteOnly();
    let sent: unknown = null;
    server.use(
      http.post(api('/auth/signup'), async ({ request }) => {
        sent = await request.json();
        return signedUp();
      }),
      http.post(api('/auth/login'), () => token()),
    );
    const { user } = renderApp({ route: '/signup' });
    expect(await screen.findByLabelText('Invitation code')).not.toBeRequired();
    await user.type(screen.getByLabelText('Name'), 'Ada Admin');
    await user.type(screen.getByLabelText('Email'), 'admin@example.com');
    // Pasted, as from a password manager: typed, each keystroke re-scores the password's strength.
    await user.click(screen.getByLabelText('Password'));
    await user.paste('analytical engine notes');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/'));
    expect(sent).toEqual({ name: 'Ada Admin', email: 'admin@example.com', password: 'analytical engine notes' });
  });

  it('without a code where one is needed, shows the server’s reason under the code field and in a notice that names the field as the form does', async () => {
    inviteOnly();
    const msg = 'Signing up needs an invitation code during the beta. No code yet? Ask for one: the link is under the sign-up form.';
    server.use(http.post(api('/auth/signup'), () => HttpResponse.json({ errors: [{ msg, loc: ['body', 'invitation_code'] }] }, { status: 422 })));
    const { user } = renderApp({ route: '/signup' });
    const code = await screen.findByLabelText('Invitation code');
    await user.type(screen.getByLabelText('Name'), 'Vera');
    await user.type(screen.getByLabelText('Email'), 'vera@example.com');
    await user.type(screen.getByLabelText('Password'), 'analytical engine notes{Enter}');
    const field = code.closest('[data-part="root"]') as HTMLElement;
    expect(await within(field).findByText(msg)).toBeInTheDocument();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(await screen.findByRole('status')).toHaveTextContent(`${msg} (Invitation code)`);
    expect(screen.queryByText(/invitation_code/)).not.toBeInTheDocument();
    expect(currentLocation()).toBe('/signup');
  });

  it('links a visitor without a code to the request form', async () => {
    inviteOnly();
    const { user } = renderApp({ route: '/signup' });
    await user.click(await screen.findByRole('link', { name: 'Ask for one' }));
    await waitFor(() => expect(currentLocation()).toBe('/request-invitation'));
    expect(await screen.findByRole('heading', { name: 'Ask for an invitation code' })).toBeInTheDocument();
  });

  // Over Jest’s 5 s on a loaded machine: a whole page rendered and driven in jsdom, 2.7 s here beside the other worker (2026-11-28).
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
  }, 15_000);

  it('offers the code as optional when anyone may sign up, with no request link', async () => {
    renderApp({ route: '/signup' });
    expect(await screen.findByLabelText('Invitation code (optional)')).toHaveValue('');
    expect(screen.getByText('If you were given one, e.g. STEP-7K2M-Q9XD.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Ask for one' })).not.toBeInTheDocument();
  });
});
