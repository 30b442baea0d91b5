// Success notifications; each disappears after 3400 ms (spec 000 §8).
import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import type { AppDispatch } from '../app/store';

export const NOTICE_MS = 3400;

export interface Notice {
  id: string;
  text: string;
}

export const noticesSlice = createSlice({
  name: 'notices',
  initialState: [] as Notice[],
  reducers: {
    shown(state, action: PayloadAction<Notice>) {
      state.push(action.payload);
    },
    hidden(state, action: PayloadAction<string>) {
      return state.filter((n) => n.id !== action.payload);
    },
  },
});

export function notify(text: string) {
  return (dispatch: AppDispatch) => {
    const id = nanoid();
    dispatch(noticesSlice.actions.shown({ id, text }));
    setTimeout(() => dispatch(noticesSlice.actions.hidden(id)), NOTICE_MS);
  };
}
