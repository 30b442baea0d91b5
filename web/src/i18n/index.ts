// react-i18next with English, French, Spanish, Portuguese and Arabic; the choice is kept in localStorage and set on
// <html lang> and <html dir> (Arabic is right-to-left: the stylesheet uses logical properties, so it mirrors).
// English is in the first bundle; each other language is its own small chunk, fetched when chosen (the service worker
// precaches them all, so a language works offline).
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en, type Translation } from './en';

/** The languages of the picker, each by its own name. */
export const LANGUAGES = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'pt', name: 'Português', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];
const KEY = 'fw.lang';

const LOADERS: Record<Exclude<LanguageCode, 'en'>, () => Promise<Translation>> = {
  fr: () => import('./fr').then((m) => m.fr),
  es: () => import('./es').then((m) => m.es),
  pt: () => import('./pt').then((m) => m.pt),
  ar: () => import('./ar').then((m) => m.ar),
};

const known = (code: string | null | undefined): code is LanguageCode => LANGUAGES.some((l) => l.code === code);

/** The writing direction of a language (ltr when unknown). */
export const directionOf = (code: string): 'ltr' | 'rtl' =>
  LANGUAGES.find((l) => l.code === code.slice(0, 2))?.dir ?? 'ltr';

function initial(): LanguageCode {
  const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(KEY);
  if (known(stored)) return stored;
  const nav = typeof navigator === 'undefined' ? 'en' : navigator.language.slice(0, 2);
  return known(nav) ? nav : 'en';
}

function applyToDocument(lng: string) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lng;
  document.documentElement.dir = directionOf(lng);
}

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  partialBundledLanguages: true,
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: LANGUAGES.map((l) => l.code),
  interpolation: { escapeValue: false },
});
applyToDocument(i18n.language);
i18n.on('languageChanged', (lng) => {
  if (typeof localStorage !== 'undefined') localStorage.setItem(KEY, lng);
  applyToDocument(lng);
});

/** Fetches a language's messages once (English is always there). */
export async function loadLanguage(code: LanguageCode): Promise<void> {
  if (code === 'en' || i18n.hasResourceBundle(code, 'translation')) return;
  i18n.addResourceBundle(code, 'translation', await LOADERS[code](), true, true);
}

/** Switches the interface to a language, its messages fetched first so that no screen shows half of each. */
export async function setLanguage(code: LanguageCode): Promise<void> {
  await loadLanguage(code);
  await i18n.changeLanguage(code);
}

/** Settles when the remembered (or the browser's) language is ready; English if its chunk cannot be fetched. */
export const languageReady: Promise<void> = (() => {
  const code = initial();
  return code === 'en' ? Promise.resolve() : setLanguage(code).catch(() => undefined);
})();

export default i18n;
