import { describe, expect, it } from 'vitest';
import { projectScreens, type ScreenPermission } from '@fieldwork/access';
import type { projects } from '@fieldwork/proto';
import { mayListProjectUsers, realName, visibleProjectUser } from './people.js';
import { NO_ROLES } from './roles.js';

const screensOf = (roles: Partial<typeof NO_ROLES>): Set<ScreenPermission> => projectScreens({ ...NO_ROLES, ...roles });

const researcherEntry: projects.ProjectUser = {
  id: 9,
  user: 42,
  user_id: 42,
  display_name: 'ada@example.test',
  email: 'ada@example.test',
  username: 'ada@example.test',
  org_id: 1,
  site: 3,
  group: 4,
  team: 5,
  read_sites: [3, 7],
  permissions: ['home', 'results'],
  project_owner: false,
  project_admin: false,
  researcher: true,
  collector: true,
  data_manager: false,
  staff_admin: false,
};

describe('the people a project shows (domain/people.ts)', () => {
  it('lists the users to those with the admins or staff screen only, as GET project/{id}/users/ does', () => {
    expect(mayListProjectUsers(screensOf({ project_owner: true }))).toBe(true);
    expect(mayListProjectUsers(screensOf({ staff_admin: true }))).toBe(true);
    for (const roles of [
      { collector: true },
      { researcher: true },
      { data_manager: true },
      { project_admin: true },
      {},
    ])
      expect(mayListProjectUsers(screensOf(roles)), JSON.stringify(roles)).toBe(false);
  });

  it('shows everything to those who manage users, and to everyone their own entry', () => {
    const owner = { userId: 1, screens: screensOf({ project_owner: true }) };
    expect(visibleProjectUser(researcherEntry, owner, '')).toBe(researcherEntry);
    const self = { userId: 42, screens: screensOf({}) };
    expect(visibleProjectUser(researcherEntry, self, '')).toBe(researcherEntry);
  });

  it('gives a collector or a guest another member’s id, place and real name, never email, roles, permissions or read_sites', () => {
    for (const roles of [{ collector: true }, {}, { project_admin: true }]) {
      const seen = visibleProjectUser(researcherEntry, { userId: 1, screens: screensOf(roles) }, 'Ada Lovelace');
      expect(seen).toEqual({
        ...researcherEntry,
        display_name: 'Ada Lovelace',
        email: '',
        username: '',
        read_sites: [],
        permissions: [],
        researcher: false,
        collector: false,
      });
      expect(JSON.stringify(seen)).not.toContain('ada@');
    }
  });

  it('tells those who read every response who files responses, and nothing more', () => {
    for (const roles of [{ researcher: true }, { data_manager: true }]) {
      const seen = visibleProjectUser(researcherEntry, { userId: 1, screens: screensOf(roles) }, '');
      expect(seen).toMatchObject({ collector: true, researcher: false, email: '', display_name: '', read_sites: [] });
      expect(seen.permissions).toEqual([]);
    }
  });

  it('names a person by first and last name only, never their username (their email)', () => {
    expect(realName({ first_name: ' Ada', last_name: 'Lovelace ' })).toBe('Ada Lovelace');
    expect(realName({ first_name: '', last_name: '' })).toBe('');
    expect(realName(undefined)).toBe('');
  });
});
