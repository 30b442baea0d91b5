// The results screen's state (spec 001 §3 Results state, §4 Results): the filter bar, chart or table mode, the
// comparison, the time zone and the export list. Item data lives in RTK Query's cache.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { FilterModel } from '@fieldwork/sampler';

export type FilterType = 'question' | 'date_range' | 'site' | 'group' | 'team' | 'collector' | 'createdBy';

export interface FilterChip {
  key: string;
  type: FilterType;
  /** Schema level the filter belongs to (0 = top); single-instance filters disable others at the same or lower level. */
  level: number;
  /** Site, group, team or user id; the date range's bounds; the question filter. */
  id?: number;
  question?: number;
  operator?: string;
  value?: unknown;
  entity?: 'response' | number;
  dateType?: string;
  start?: number | null;
  end?: number | null;
  label: string;
  disabled: boolean;
  deleted: boolean;
  permanent: boolean;
}

/** Filter types that stand alone: adding one disables the others of its type at the same or lower level. */
export const SINGLE_INSTANCE = new Set<FilterType>(['site', 'group', 'team', 'collector', 'createdBy', 'date_range']);

export type Comparison =
  | { by: 'site' | 'group' | 'team' | 'collector' }
  | { by: 'period'; period: string }
  | { by: 'question'; item_id: number };

export interface ResultsState {
  filters: FilterChip[];
  mode: 'chart' | 'table';
  comparison: Comparison | null;
  timeZone: string;
  exportList: { questionId: number; schemaId: number }[];
  dialogs: Record<string, boolean>;
}

export const initialResultsState: ResultsState = {
  filters: [],
  mode: 'chart',
  comparison: null,
  timeZone: 'UTC',
  exportList: [],
  dialogs: {},
};

export const resultsSlice = createSlice({
  name: 'results',
  initialState: initialResultsState,
  reducers: {
    addFilter(
      state,
      { payload }: PayloadAction<Omit<FilterChip, 'disabled' | 'deleted' | 'permanent'> & { permanent?: boolean }>,
    ) {
      if (SINGLE_INSTANCE.has(payload.type)) {
        for (const f of state.filters)
          if (f.type === payload.type && !f.deleted && f.level >= payload.level) f.disabled = true;
      }
      state.filters.push({ ...payload, permanent: payload.permanent ?? false, disabled: false, deleted: false });
    },
    toggleFilter(state, { payload }: PayloadAction<string>) {
      const f = state.filters.find((x) => x.key === payload);
      if (!f) return;
      f.disabled = !f.disabled;
      if (!f.disabled && SINGLE_INSTANCE.has(f.type)) {
        for (const o of state.filters)
          if (o !== f && o.type === f.type && !o.deleted && o.level >= f.level) o.disabled = true;
      }
    },
    /** Marks a filter deleted; permanent filters stay. */
    removeFilter(state, { payload }: PayloadAction<string>) {
      const f = state.filters.find((x) => x.key === payload);
      if (f && !f.permanent) f.deleted = true;
    },
    setMode(state, { payload }: PayloadAction<'chart' | 'table'>) {
      state.mode = payload;
    },
    setComparison(state, { payload }: PayloadAction<Comparison | null>) {
      state.comparison = payload;
    },
    setTimeZone(state, { payload }: PayloadAction<string>) {
      state.timeZone = payload;
    },
    addToExportList(state, { payload }: PayloadAction<{ questionId: number; schemaId: number }>) {
      if (!state.exportList.some((e) => e.questionId === payload.questionId && e.schemaId === payload.schemaId))
        state.exportList.push(payload);
    },
    removeFromExportList(state, { payload }: PayloadAction<{ questionId: number; schemaId: number }>) {
      state.exportList = state.exportList.filter(
        (e) => !(e.questionId === payload.questionId && e.schemaId === payload.schemaId),
      );
    },
    setExportList(state, { payload }: PayloadAction<{ questionId: number; schemaId: number }[]>) {
      state.exportList = payload;
    },
    toggleDialog(state, { payload }: PayloadAction<string>) {
      state.dialogs[payload] = !state.dialogs[payload];
    },
    reset: () => initialResultsState,
  },
});

export const resultsActions = resultsSlice.actions;

/** The filter model (spec 001 §3 Response filter) the active chips make. */
export function filterModelOf(chips: FilterChip[]): Partial<FilterModel> {
  const live = chips.filter((c) => !c.disabled && !c.deleted);
  const ids = (type: FilterType) => live.filter((c) => c.type === type && c.id !== undefined).map((c) => c.id!);
  const model: Partial<FilterModel> = {
    date_ranges: live
      .filter((c) => c.type === 'date_range')
      .map((c) => ({
        entity: c.entity ?? 'response',
        dateType: (c.dateType ?? 'time_created') as 'time_created',
        startDateTime: c.start ?? null,
        endDateTime: c.end ?? null,
      })),
    filters: live
      .filter((c) => c.type === 'question' && c.question !== undefined)
      .map((c) => ({ question: c.question!, operator: (c.operator ?? '==') as '==', value: c.value })),
  };
  for (const type of ['site', 'group', 'team', 'collector'] as const) {
    const list = ids(type);
    if (list.length > 0) model[type] = list;
  }
  const createdBy = ids('createdBy');
  if (createdBy.length > 0) model.createdBy = createdBy[0]!;
  return model;
}
