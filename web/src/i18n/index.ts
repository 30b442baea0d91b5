// react-i18next with English and French; the choice is kept in localStorage and set on <html lang>.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { fr } from './fr';

export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'fr', name: 'Français' },
] as const;
const KEY = 'fw.lang';

function initial(): string {
  const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(KEY);
  if (stored && LANGUAGES.some((l) => l.code === stored)) return stored;
  const nav = typeof navigator === 'undefined' ? 'en' : navigator.language.slice(0, 2);
  return LANGUAGES.some((l) => l.code === nav) ? nav : 'en';
}

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, fr: { translation: fr } },
  lng: initial(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
});
if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;
i18n.on('languageChanged', (lng) => {
  localStorage.setItem(KEY, lng);
  document.documentElement.lang = lng;
});

export default i18n;
