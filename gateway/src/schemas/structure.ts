// Request schemas of the site, group and team routes (routes/structure.ts; spec 000 §7 Projects).
import { optBoundedInt } from '../schemas.js';
import { body, date, flag, geotag, optText, params, ref, text } from './common.js';

const site = {
  name: text(255),
  frontend_icon: optText(100),
  frontend_color: optText(50),
  date_start: date,
  date_end: date,
  geotag,
  /** Tracking: the responses the site is expected to collect (0 or null: no target). */
  goal_count: optBoundedInt(0),
};

export const structureSchemas = {
  projectParams: params('id'),
  subParams: params('id', 'sub'),
  /** POST and PUT: the whole site (its geotag is required: the service answers "Geotag is required"). */
  site: body(site),
  /** PATCH: {active_flag} alone switches the site on or off; otherwise the site's fields. */
  sitePatch: body({ ...site, active_flag: flag }),
  group: body({ name: text(255), site: ref }),
  team: body({ name: text(255), group: ref }),
} as const;
