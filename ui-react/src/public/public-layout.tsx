import type { ReactNode } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { LANGUAGE_NAMES, language, offeredLanguages, setLanguage, useT } from '../i18n.js';
import type { Language } from '@tessera/core/internal';

export const Brand = () => (
  <div className="brand" aria-label="Tessera">
    <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="var(--accent)" />
      <path d="M8 8h7v7H8zM17 8h7v7h-7zM8 17h7v7H8z" fill="#fff" />
      <path d="M17 17h7v7h-7z" fill="#fff" opacity=".55" />
    </svg>
    <span>Tessera</span>
  </div>
);

/** The frame of the public pages: a centred card on a quiet background, with a language switch. */
export const PublicLayout = ({ title, children, wide }: { title?: string; children: ReactNode; wide?: boolean }) => {
  useSignals();
  const t = useT();
  return (
    <div className="public">
      <main className={`public-card ${wide ? 'wide' : ''}`} id="main">
        <Brand />
        {title && <h1 className="public-title">{title}</h1>}
        {children}
      </main>
      <label className="public-lang">
        <span className="sr-only">{t('LblLanguage')}</span>
        <select value={language.value} onChange={(e) => setLanguage(e.target.value as Language)}>
          {offeredLanguages.value.map((l) => (
            <option key={l} value={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
};

export const Field = ({
  id,
  label,
  ...input
}: { id: string; label: string } & React.InputHTMLAttributes<HTMLInputElement>) => (
  <div className="field">
    <label htmlFor={id}>{label}</label>
    <input id={id} name={id} {...input} />
  </div>
);
