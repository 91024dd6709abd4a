// Localization editor benchmark (issue 15). The editor lists every text of the demo organization
// (metadata of the system and demo packs, the built-in catalogue as ui.{key}) with the Slovak
// records the packs seed, and filters them on every keystroke of the search.
// 1. Building the lines (on load and after a save): goal under 50 ms.
// 2. One keystroke of the search (a word that folds accents, over every line): goal under one
//    frame, 16 ms, measured against a bare `includes` over the keys in the same run (the ratio shows
//    what folding and the three columns cost).
// Run: node --import tsx tests/bench/localization-editor-bench.ts (or npm run bench).
import { builtInPacks, type InuViewRecord } from '@tessera/core/internal';
import { metadataTexts } from '../../ui-react/src/customize-localization/localizable-texts.js';
import { filterRows, textRows, type FetchedText } from '../../ui-react/src/customize-localization/localization-rows.js';

const packs = builtInPacks();
const entities = Object.fromEntries(packs.flatMap((p) => p.entities).map((e) => [e.logicalName, e]));
const gui: InuViewRecord[] = packs.flatMap((p) =>
  (p.views ?? []).map((v) => ({
    kind: v.kind,
    name: v.name,
    label: v.label ?? null,
    objectname: v.objectname ?? null,
    appid: v.appid ? { id: '00000000-0000-4000-8000-000000000001', name: 'inu_app', label: v.appid } : null,
    body: JSON.stringify(v.body),
  })),
);
let n = 0;
const records: FetchedText[] = packs.flatMap((p) =>
  Object.entries(p.translations ?? {})
    .filter(([lang]) => lang === 'sk')
    .flatMap(([lang, texts]) => Object.entries(texts).map(([name, text]) => ({ id: String(++n), name, lang, text }))),
);

const time = (f: () => unknown, runs: number): number => {
  f();
  const start = performance.now();
  for (let i = 0; i < runs; i++) f();
  return (performance.now() - start) / runs;
};

const meta = metadataTexts({ entities, gui });
const build = time(() => textRows(metadataTexts({ entities, gui }), records, 'sk'), 20);
const rows = textRows(meta, records, 'sk');
const searches = ['f', 'fi', 'fir', 'firm', 'ulozit', 'account.plural', 'zakaz'];
let k = 0;
const search = time(() => filterRows(rows, { search: searches[k++ % searches.length], missingOnly: false, kind: 'all' }), 200);
k = 0;
const bare = time(() => rows.filter((r) => r.key.includes(searches[k++ % searches.length])), 200);

const line = (name: string, value: number, unit: string, goal: string, ok: boolean) => console.log(`bench ${name}: ${value.toFixed(2)} ${unit} (goal ${goal}) ${ok ? 'ok' : 'short'}`);
console.log(`# ${rows.length} lines (${meta.length} metadata texts, ${records.length} Slovak records)`);
line('localization lines built', build, 'ms', '< 50 ms', build < 50);
line('localization search keystroke', search, 'ms', `< 16 ms; ${(search / bare).toFixed(1)}x a bare key match`, search < 16);
