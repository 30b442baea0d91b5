// The names of comparison groups (spec 001 §4, §9). A group's key is an id of the comparison's own kind — a site, a
// group, a team or a collector (user) id, a choice id of the compared question — or a period's text, and it is named
// from that kind only: ids of different kinds overlap (choice 3, site 3 and user 3 are unrelated), so a name is never
// looked up across kinds. Pure: the names come in, a label goes out.
import i18n from 'i18next';
import { formatChartDate } from './format';
import type { Comparison } from './resultsSlice';

/** The key of the one group of a capped comparison that holds the answers of every group past its limit. */
export const OTHER = '\u0000other';

/** The key of the responses of no site, group, team or collector (an anonymous link's responses, user id 0). */
export const NONE = '0';

/** What names the groups of a comparison; each source is read for its own kind of comparison only. */
export interface NameSources {
  sites?: readonly { id: number; name: string }[];
  groups?: readonly { id: number; name: string }[];
  teams?: readonly { id: number; name: string }[];
  /** The project's embedded users (its first users). */
  users?: readonly { user_id: number; display_name?: string; username?: string; email?: string }[];
  /** Collectors the project does not embed, named by the people list of the results (user id to name). */
  people?: ReadonlyMap<number, string>;
  /** The name of a choice of the compared question, in the user's language (the form's choices, by choice id). */
  choice?: (choiceId: number) => string | undefined;
}

/** Names a group of a comparison: the comparison (as the item's results echo it) and the group's key. */
export type GroupNames = (by: Comparison, key: string) => string;

type Translate = (key: string, options?: Record<string, unknown>) => string;

const named = (list: readonly { id: number; name: string }[] | undefined, id: number) =>
  list?.find((x) => x.id === id)?.name || undefined;

/**
 * The label of the group `key` of comparison `by`: a site, group or team by its name ("No site" for responses
 * without one), a collector by their name ("Anonymous" for user 0: a collection link's responses), a choice by its
 * name, a period in the chart date format of its unit, the capped rest as "Other". An id no source names is shown
 * with its kind ("Site #12"), never as a bare number.
 */
export function groupName(by: Comparison, key: string, sources: NameSources, t: Translate = i18n.t): string {
  if (key === OTHER) return t('results.other');
  if (by.by === 'period') return formatChartDate(key, by.period || 'month');
  const id = Number(key);
  const numbered = (kind: string) => t('results.numbered', { kind, id: key });
  switch (by.by) {
    case 'site':
      if (key === NONE) return t('results.noSite');
      return named(sources.sites, id) ?? numbered(t('results.by.site'));
    case 'group':
      if (key === NONE) return t('results.noGroup');
      return named(sources.groups, id) ?? numbered(t('results.by.group'));
    case 'team':
      if (key === NONE) return t('results.noTeam');
      return named(sources.teams, id) ?? numbered(t('results.by.team'));
    case 'collector': {
      if (key === NONE) return t('results.anonymous');
      const user = sources.users?.find((u) => u.user_id === id);
      return (
        user?.display_name ||
        sources.people?.get(id) ||
        user?.username ||
        user?.email ||
        numbered(t('results.by.collector'))
      );
    }
    case 'question':
      return sources.choice?.(id) || numbered(t('results.choice'));
  }
}

/**
 * Labels made distinct for a category axis: plotly draws equal categories at one place, so a second "North" (two
 * sites of one name, or two names cut to the same text) becomes "North (2)".
 */
export function distinct(labels: readonly string[]): string[] {
  const seen = new Map<string, number>();
  const taken = new Set(labels);
  return labels.map((label) => {
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    if (n === 1) return label;
    let k = n;
    while (taken.has(`${label} (${k})`)) k++;
    const out = `${label} (${k})`;
    taken.add(out);
    return out;
  });
}
