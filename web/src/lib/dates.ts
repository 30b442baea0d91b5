// Date display formats of spec 000 §9: DD/MM/YYYY with HH:mm when not midnight; display time YYYY-MM-DD HH:mm:ss.
import dayjs from 'dayjs';

export const DATE_FORMAT = 'DD/MM/YYYY';
export const DISPLAY_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const INTERNAL_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss.SSSS';

/** DD/MM/YYYY, with HH:mm appended when the time is not midnight. Empty for missing or invalid input. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(value);
  if (!d.isValid()) return '';
  const midnight = d.hour() === 0 && d.minute() === 0 && d.second() === 0 && d.millisecond() === 0;
  return midnight ? d.format(DATE_FORMAT) : d.format(`${DATE_FORMAT} HH:mm`);
}

/** YYYY-MM-DD HH:mm:ss. */
export function formatDisplayTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(value);
  return d.isValid() ? d.format(DISPLAY_TIME_FORMAT) : '';
}
