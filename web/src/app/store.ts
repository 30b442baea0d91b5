import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { api } from './api';
import { sessionSlice } from '../features/session/sessionSlice';
import { noticesSlice } from '../components/noticesSlice';
import { builderSlice } from '../features/builder/builderSlice';
import { resultsSlice } from '../features/results/resultsSlice';

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  session: sessionSlice.reducer,
  notices: noticesSlice.reducer,
  builder: builderSlice.reducer,
  results: resultsSlice.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
