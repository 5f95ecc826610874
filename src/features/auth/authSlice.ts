import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { UserOut } from '../../../server/src/modules/users/users.schemas';
import { sessionEnded } from './authActions';
import { initializeAuth, login, LOAD_USER_FAILED } from './authThunks';

// Who is signed in (spec §4 "Auth state"). `initialized` tells the app whether the stored token has
// been checked yet, so guarded pages wait instead of bouncing a signed-in user to /login.

export interface AuthState {
  user: UserOut | null;
  loading: boolean;
  isAuthenticated: boolean;
  initialized: boolean;
  error: string | null;
}

export const initialAuthState: AuthState = {
  user: null,
  loading: true,
  isAuthenticated: false,
  initialized: false,
  error: null,
};

const signedOutState: AuthState = { ...initialAuthState, loading: false, initialized: true };

const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    /** Settings saved: keep the header and dashboard in step without refetching the user. */
    userUpdated(state, action: PayloadAction<Partial<Pick<UserOut, 'name' | 'locale' | 'theme'>>>) {
      if (state.user) Object.assign(state.user, action.payload);
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(initializeAuth.fulfilled, (_state, action) =>
        action.payload ? { user: action.payload, loading: false, isAuthenticated: true, initialized: true, error: null } : signedOutState,
      )
      .addCase(initializeAuth.rejected, () => ({ ...signedOutState, error: LOAD_USER_FAILED }))
      .addCase(login.fulfilled, (_state, action) => ({
        user: action.payload,
        loading: false,
        isAuthenticated: true,
        initialized: true,
        error: null,
      }))
      .addCase(sessionEnded, () => signedOutState);
  },
});

export const { userUpdated } = authSlice.actions;
export const authReducer = authSlice.reducer;

export const selectAuth = (state: { auth: AuthState }) => state.auth;
export const selectUser = (state: { auth: AuthState }) => state.auth.user;
