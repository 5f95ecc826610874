import { createAction, createSelector, createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import type { Modal } from '../../../server/src/http/common.schemas';

// Messages shown to the user (spec §3 "Message", §4 "Message lifecycle"). Non-modal messages are
// rendered by the Toaster and expire; the first message with modal data is rendered by the
// NoticeModal and stays until one of its buttons is clicked.

export type NoticeType = 'error' | 'success' | 'warning' | 'info';

export interface Notice {
  id: string;
  type: NoticeType;
  text: string;
  modal?: Modal;
  /** Milliseconds before a non-modal message goes away; DEFAULT_NOTICE_DURATION when absent. */
  duration?: number;
}

export type NewNotice = Omit<Notice, 'id'>;

export const DEFAULT_NOTICE_DURATION = 5000;

/** A modal button was clicked. Later features listen for their own modal_id and button name. */
export const modalButtonClicked = createAction<{ modal_id: string; button: string }>('notices/modalButtonClicked');

interface NoticesState {
  messages: Notice[];
}

const initialState: NoticesState = { messages: [] };

const noticesSlice = createSlice({
  name: 'notices',
  initialState,
  reducers: {
    addMessage: {
      reducer(state, action: PayloadAction<Notice>) {
        // The same modal (same modal_id) arriving twice, e.g. from two calls, is shown once.
        if (state.messages.some((m) => m.id === action.payload.id)) return;
        state.messages.push(action.payload);
      },
      prepare(notice: NewNotice) {
        return { payload: { ...notice, id: notice.modal?.modal_id ?? nanoid() } };
      },
    },
    removeMessage(state, action: PayloadAction<string>) {
      state.messages = state.messages.filter((m) => m.id !== action.payload);
    },
  },
  extraReducers: (builder) => {
    builder.addCase(modalButtonClicked, (state, action) => {
      state.messages = state.messages.filter((m) => m.id !== action.payload.modal_id);
    });
  },
});

export const { addMessage, removeMessage } = noticesSlice.actions;
export const noticesReducer = noticesSlice.reducer;

interface WithNotices {
  notices: NoticesState;
}

const selectMessages = (state: WithNotices) => state.notices.messages;

export const selectToastMessages = createSelector([selectMessages], (messages) => messages.filter((m) => !m.modal));
export const selectFirstModalMessage = (state: WithNotices) => state.notices.messages.find((m) => m.modal);
