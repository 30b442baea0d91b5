// The builder's state (spec 001 §4 Form builder): the schema being edited, the last saved copy, dirty after any
// edit and clean after a save or a discard; a background save leaves the saving and dirty flags alone.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SchemaBody } from '@fieldwork/sampler';

export interface SchemaDocument extends SchemaBody {
  id: number;
  name: string;
  revision: number;
  editable: boolean;
  level: number;
}

export interface BuilderState {
  schemaId: number | null;
  name: string;
  revision: number;
  editable: boolean;
  saved: SchemaBody | null;
  body: SchemaBody | null;
  dirty: boolean;
  saving: boolean;
  lang: string;
}

const initialState: BuilderState = {
  schemaId: null,
  name: '',
  revision: 0,
  editable: false,
  saved: null,
  body: null,
  dirty: false,
  saving: false,
  lang: 'en',
};

const bodyOf = (d: SchemaDocument): SchemaBody => ({
  version: d.version,
  primary_language: d.primary_language,
  form: d.form,
  counters: d.counters,
  entities: d.entities,
  results: d.results,
  profiles: d.profiles,
});

export const builderSlice = createSlice({
  name: 'builder',
  initialState,
  reducers: {
    loaded(_state, action: PayloadAction<SchemaDocument>) {
      const d = action.payload;
      return {
        ...initialState,
        schemaId: d.id,
        name: d.name,
        revision: d.revision,
        editable: d.editable,
        saved: bodyOf(d),
        body: bodyOf(d),
        lang: d.primary_language,
      };
    },
    edited(state, action: PayloadAction<SchemaBody>) {
      state.body = action.payload;
      state.dirty = true;
    },
    savingStarted(state) {
      state.saving = true;
    },
    savingFailed(state) {
      state.saving = false;
    },
    saved(state, action: PayloadAction<SchemaDocument>) {
      state.saved = bodyOf(action.payload);
      state.revision = action.payload.revision;
      state.saving = false;
      state.dirty = false;
    },
    /** A save the user did not ask for: the saved copy and revision move on, the flags stay. */
    backgroundSaved(state, action: PayloadAction<SchemaDocument>) {
      state.saved = bodyOf(action.payload);
      state.revision = action.payload.revision;
    },
    /** Discard restores the last saved copy. */
    discarded(state) {
      state.body = state.saved;
      state.dirty = false;
    },
    languageChosen(state, action: PayloadAction<string>) {
      state.lang = action.payload;
    },
  },
});

export const { loaded, edited, savingStarted, savingFailed, saved, backgroundSaved, discarded, languageChosen } =
  builderSlice.actions;
