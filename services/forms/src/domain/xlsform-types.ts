// The XLSForm `type` column, with pyxform's spellings (aliases.py, question_type_dictionary.py): each type and the
// sampler item type nearest to it, with what the mapping loses; metadata types, which Fieldwork records itself or not.
import type { ItemType } from '@fieldwork/sampler';

export type ParsedType =
  | { kind: 'begin'; what: 'group' | 'repeat' }
  | { kind: 'end'; what: 'group' | 'repeat' }
  | { kind: 'select'; multi: boolean; rank: boolean; list: string; orOther: boolean; fromFile: boolean }
  | { kind: 'plain'; type: string }
  | { kind: 'meta'; message: string }
  | { kind: 'unknown' };

export const PLAIN_TYPES: Record<string, { type: ItemType; decimal?: boolean; note?: string }> = {};
const add = (names: string[], def: { type: ItemType; decimal?: boolean; note?: string }) => {
  for (const n of names) PLAIN_TYPES[n] = def;
};
add(['integer', 'int', 'add integer prompt', 'q int'], { type: 'number' });
add(['decimal', 'add decimal prompt', 'q decimal'], { type: 'number', decimal: true });
add(['range'], { type: 'number' });
add(['text', 'string', 'add text prompt', 'q string'], { type: 'open' });
add(['date', 'add date prompt', 'q date'], { type: 'date' });
add(['datetime', 'add datetime prompt', 'q datetime'], {
  type: 'date',
  note: 'A date and time question became a date question: the time of day is not kept.',
});
add(['time', 'add time prompt'], {
  type: 'open',
  note: 'A time question became a text question (the sampler has no time question).',
});
add(['geopoint', 'gps', 'location', 'add location prompt', 'q geopoint', 'q location'], { type: 'geotag' });
add(['geotrace', 'q geotrace'], {
  type: 'geotag',
  note: 'A line (geotrace) became a location question: one point is recorded, not a line.',
});
add(['geoshape', 'q geoshape'], {
  type: 'geotag',
  note: 'An area (geoshape) became a location question: one point is recorded, not an area.',
});
add(['image', 'photo', 'add image prompt', 'add photo prompt', 'q image', 'q picture'], { type: 'image' });
add(['audio', 'add audio prompt', 'q audio'], {
  type: 'image',
  note: 'An audio question became a photo question (the sampler has no audio question).',
});
add(['video', 'add video prompt', 'q video'], {
  type: 'image',
  note: 'A video question became a photo question (the sampler has no video question).',
});
add(['file', 'add file prompt'], {
  type: 'image',
  note: 'A file question became a photo question (the sampler has no file question).',
});
add(['barcode', 'add barcode prompt', 'q barcode'], { type: 'barcode' });
add(['note', 'add note prompt', 'q note'], { type: 'instruction' });
add(['calculate', 'add calculate prompt', 'q calculate'], { type: 'calculated' });
add(['acknowledge', 'add acknowledge prompt', 'q acknowledge', 'trigger'], {
  type: 'binary',
  note: 'An acknowledge question became a yes/no question.',
});

const RECORDED: Record<string, string> = {
  start: 'the time a response is created',
  starttime: 'the time a response is created',
  'start time': 'the time a response is created',
  'get start time': 'the time a response is created',
  end: 'the time a response is last updated and completed',
  endtime: 'the time a response is last updated and completed',
  'end time': 'the time a response is last updated and completed',
  'get end time': 'the time a response is last updated and completed',
  today: 'the date a response is created',
  'get today': 'the date a response is created',
  deviceid: 'the device of a response',
  imei: 'the device of a response',
  'get device id': 'the device of a response',
  username: 'the user of a response',
  email: 'the user of a response',
  'start-geopoint': 'the location of a response',
};
const NOT_RECORDED = new Set([
  'subscriberid',
  'simserial',
  'phonenumber',
  'phone number',
  'get phone number',
  'get sim id',
  'sim id',
  'audit',
  'background-audio',
  'background-geopoint',
  'hidden',
]);

const SELECTS: [string, { multi: boolean; rank?: boolean; fromFile?: boolean }][] = (
  [
    ['select_one_from_file', { multi: false, fromFile: true }],
    ['select one from file', { multi: false, fromFile: true }],
    ['select_multiple_from_file', { multi: true, fromFile: true }],
    ['select multiple from file', { multi: true, fromFile: true }],
    ['select_one_external', { multi: false }],
    ['add select one prompt using', { multi: false }],
    ['add select multiple prompt using', { multi: true }],
    ['select all that apply from', { multi: true }],
    ['select all that apply', { multi: true }],
    ['select multiple from', { multi: true }],
    ['select one from', { multi: false }],
    ['select one using', { multi: false }],
    ['select multiple using', { multi: true }],
    ['select_one', { multi: false }],
    ['select one', { multi: false }],
    ['select1', { multi: false }],
    ['select_multiple', { multi: true }],
    ['select multiple', { multi: true }],
    ['rank', { multi: true, rank: true }],
  ] as const
).map(([k, v]) => [k, v]);

/** The meaning of a `type` cell. */
export function parseType(raw: string): ParsedType {
  const text = raw.replace(/\s+/g, ' ').trim();
  const lower = text.toLowerCase();
  const block = /^(begin|start|end)[ _](group|repeat|looped group|loop)\b/.exec(lower);
  if (block)
    return block[1] === 'end'
      ? { kind: 'end', what: block[2] === 'group' ? 'group' : 'repeat' }
      : { kind: 'begin', what: block[2] === 'group' ? 'group' : 'repeat' };
  for (const [keyword, def] of SELECTS) {
    if (lower !== keyword && !lower.startsWith(`${keyword} `)) continue;
    let list = text.slice(keyword.length).trim();
    const other = /\s+or[_ ]other$/i.exec(list);
    if (other) list = list.slice(0, other.index).trim();
    return {
      kind: 'select',
      multi: def.multi,
      rank: def.rank === true,
      list,
      orOther: other !== null,
      fromFile: def.fromFile === true,
    };
  }
  if (PLAIN_TYPES[lower]) return { kind: 'plain', type: lower };
  const meta = lower.replace(/^uri:/, '');
  if (RECORDED[meta])
    return {
      kind: 'meta',
      message: `The metadata "${text}" is not a question; Fieldwork records ${RECORDED[meta]} itself.`,
    };
  if (NOT_RECORDED.has(meta))
    return { kind: 'meta', message: `The metadata "${text}" has no equivalent; it is not recorded.` };
  if (['osm', 'xml-external', 'csv-external', 'include'].includes(lower.split(' ')[0]!))
    return { kind: 'meta', message: `The type "${text}" has no equivalent; row skipped.` };
  return { kind: 'unknown' };
}
