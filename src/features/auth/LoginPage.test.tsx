import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api, testUser } from '../../test/handlers';
import { currentLocation, renderApp } from '../../test/renderWithProviders';
import { server } from '../../test/server';

function answerLogin(response: () => Response) {
  server.use(http.post(api('/auth/login'), response));
}

describe('sign-in page', () => {
  it('shows the server error for wrong credentials and stays on the page', async () => {
    answerLogin(() => HttpResponse.json({ detail: 'Incorrect email or password.' }, { status: 401 }));
    const { user } = renderApp({ route: '/login' });
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Incorrect email or password.');
    expect(currentLocation()).toBe('/login');
    expect(screen.queryByText('Unauthorized. Redirecting to login...')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('signs in with Enter, stores the token and goes home', async () => {
    let body = '';
    answerLogin(() => HttpResponse.json({ access_token: 'tok', token_type: 'bearer', expires_in: 3600 }));
    server.use(
      http.post(api('/auth/login'), async ({ request }) => {
        body = await request.text();
        return HttpResponse.json({ access_token: 'tok', token_type: 'bearer', expires_in: 3600 });
      }),
    );
    const { user, store } = renderApp({ route: '/login' });
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/'));
    expect(new URLSearchParams(body).get('username')).toBe('ada@example.com');
    expect(localStorage.getItem('accessToken')).toBe('tok');
    expect(store.getState().auth.user).toEqual(testUser);
    expect(await screen.findByRole('heading', { name: 'Welcome back, Ada Lovelace' })).toBeInTheDocument();
  });

  it('returns to the page the user came from', async () => {
    answerLogin(() => HttpResponse.json({ access_token: 'tok', token_type: 'bearer', expires_in: 3600 }));
    const { user } = renderApp({ route: '/settings' });
    await waitFor(() => expect(currentLocation()).toBe('/login'));
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(currentLocation()).toBe('/settings'));
    expect(await screen.findByRole('heading', { name: 'Settings', level: 1 })).toBeInTheDocument();
  });

  it('checks empty fields before calling the server', async () => {
    const { user } = renderApp({ route: '/login' });
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Enter your email address.')).toBeInTheDocument();
    expect(screen.getByText('Enter your password.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Enter a valid email address.')).toBeInTheDocument();
  });

  it('pre-fills the email handed over by sign-up', async () => {
    renderApp({ route: { pathname: '/login', state: { email: 'new@example.com' } } });
    expect(await screen.findByLabelText('Email')).toHaveValue('new@example.com');
  });

  it('links to sign-up and password reset in the current language', async () => {
    renderApp({ route: '/cn/login' });
    expect(await screen.findByRole('link', { name: '立即注册' })).toHaveAttribute('href', '/cn/signup');
    expect(screen.getByRole('link', { name: '忘记密码？' })).toHaveAttribute('href', '/cn/forgot-password');
    expect(screen.getByLabelText('邮箱')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '登录' })).toBeInTheDocument();
  });
});
