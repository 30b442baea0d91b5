// Success notifications; each disappears after 3400 ms (spec 000 §8).
// It dispatches plain actions only, so it takes Redux's Dispatch rather than the app's AppDispatch: app/store.ts
// imports this slice, and importing the store's types back made an import cycle (scripts/src/import-cycles.test.ts).
import { createSlice, nanoid, type Dispatch, type PayloadAction } from '@reduxjs/toolkit';

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
  return (dispatch: Dispatch) => {
    const id = nanoid();
    dispatch(noticesSlice.actions.shown({ id, text }));
    setTimeout(() => dispatch(noticesSlice.actions.hidden(id)), NOTICE_MS);
  };
}
