import { createAsyncThunk } from '@reduxjs/toolkit';
import type { UserOut } from '../../../server/src/modules/users/users.schemas';
import { navigate } from '../../app/navigation';
import { getCurrentLocale, translate } from '../../i18n/currentIntl';
import { withLocalePrefix } from '../../i18n/locales';
import { baseApi } from '../../services/baseApi';
import { clearAccessToken, getAccessToken, setAccessToken } from '../../services/tokenStorage';
import { addMessage } from '../notices/noticesSlice';
import { usersApi } from '../users/usersApi';
import { authApi } from './authApi';
import { sessionEnded } from './authActions';
import type { AuthState } from './authSlice';

// The auth flows of spec §4: start-up check of a stored token, sign-in, sign-out.

/** Kept in the state as-is (language-neutral); the notice shows the translated text. */
export const LOAD_USER_FAILED = 'Failed to load user';

type ThunkConfig = { state: { auth: AuthState }; rejectValue: string };

// A store whose initialisation has started. `initialized` alone cannot stop a second dispatch that
// arrives while the first is still waiting for /users/me (React StrictMode runs effects twice).
// Keyed by the store's getState, so every store (one per test) gets its own single run.
const initStarted = new WeakSet<object>();

function fetchMe(dispatch: (action: unknown) => unknown) {
  // subscribe: false: the user lives in the auth slice; the cache entry need not be kept alive.
  return dispatch(usersApi.endpoints.getMe.initiate(undefined, { forceRefetch: true, subscribe: false })) as ReturnType<
    ReturnType<typeof usersApi.endpoints.getMe.initiate>
  >;
}

export const initializeAuth = createAsyncThunk<UserOut | null, void, ThunkConfig>(
  'auth/initialize',
  async (_arg, { dispatch, rejectWithValue }) => {
    if (!getAccessToken()) return null;
    const result = await fetchMe(dispatch);
    if (result.data) return result.data;
    // Forced logout without calling the logout endpoint: the token just failed, so there is no
    // session worth revoking, and a second failing call would only add noise.
    clearAccessToken();
    dispatch(addMessage({ type: 'error', text: translate('auth.loadUserFailed') }));
    return rejectWithValue(LOAD_USER_FAILED);
  },
  {
    condition: (_arg, { getState }) => {
      if (getState().auth.initialized || initStarted.has(getState)) return false;
      initStarted.add(getState);
      return true;
    },
  },
);

export interface Credentials {
  email: string;
  password: string;
}

/** POST /auth/login → store the token → load the user. Navigation is left to the caller, which
 *  knows where the user came from. Failures were already shown by the notices middleware. */
export const login = createAsyncThunk<UserOut, Credentials, ThunkConfig>('auth/login', async ({ email, password }, { dispatch }) => {
  const request = dispatch(authApi.endpoints.login.initiate({ username: email, password }));
  try {
    const token = await request.unwrap();
    setAccessToken(token.access_token);
  } finally {
    // Keep the token out of the Redux store (and so out of DevTools).
    request.reset();
  }
  try {
    return await fetchMe(dispatch).unwrap();
  } catch (error) {
    clearAccessToken();
    throw error;
  }
});

/** Sign out (spec §4 "Logout"): whatever the server answers, the session ends here. */
export const logout = createAsyncThunk<void, void, ThunkConfig>('auth/logout', async (_arg, { dispatch }) => {
  try {
    await dispatch(authApi.endpoints.logout.initiate()).unwrap();
  } finally {
    // The Authorization header is built from the stored token on every request, so removing the
    // token removes the header too. A throw from the call above propagates after this block.
    clearAccessToken();
    dispatch(sessionEnded());
    dispatch(baseApi.util.resetApiState());
    navigate(withLocalePrefix('/login', getCurrentLocale()));
  }
});
