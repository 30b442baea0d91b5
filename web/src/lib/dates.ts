// Dates are formatted per language by i18n/format.ts; this module keeps the older import path working.
export { formatDate, formatDateTime } from '../i18n/format';
