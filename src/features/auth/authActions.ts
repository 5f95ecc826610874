import { createAction } from '@reduxjs/toolkit';

// The session is over (sign-out or a 401): shared by the auth slice, the auth thunks and the
// notices middleware, kept apart from them so none has to import another.
export const sessionEnded = createAction('auth/sessionEnded');
