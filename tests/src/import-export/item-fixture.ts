// An organization with a 20-column entity in a data folder, and CSV files of generated rows:
// shared by the crash test (crash.test.ts) and the benchmark (tests/bench/import-export-bench.ts).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { buildContainer, closeContainer, CliTokens, defaultHostConfig, resolve } from '@tessera/cli';
import { systemPack, type Entity, type Pack } from '@tessera/core/internal';

/** `name` plus 19 fields: 20 columns in the file. */
export const item: Entity = {
  logicalName: 'item',
  displayName: 'Item',
  displayNamePlural: 'Items',
  properties: [
    { logicalName: 'code', displayName: 'Code', type: 'String', max: 40 },
    { logicalName: 'qty', displayName: 'Quantity', type: 'Integer' },
    { logicalName: 'price', displayName: 'Price', type: 'Money' },
    { logicalName: 'weight', displayName: 'Weight', type: 'Float' },
    { logicalName: 'ratio', displayName: 'Ratio', type: 'Decimal' },
    { logicalName: 'active', displayName: 'Active', type: 'Boolean' },
    { logicalName: 'due', displayName: 'Due', type: 'DateTime', flags: ['DateOnly'] },
    { logicalName: 'seen', displayName: 'Seen', type: 'DateTime' },
    {
      logicalName: 'kind',
      displayName: 'Kind',
      type: 'Integer',
      flags: ['OptionSet'],
      richOptions: [
        { value: 1, label: 'Small' },
        { value: 2, label: 'Large' },
      ],
    },
    ...Array.from({ length: 10 }, (_, i) => ({ logicalName: `text${i}`, displayName: `Text ${i}`, type: 'String' as const, max: 100 })),
  ],
};
export const COLUMNS = ['name', ...item.properties.map((p) => p.logicalName)];

/** `audit: false` compares the import with raw inserts doing the same work (the audit's own cost has its bench line). */
export const createBenchOrganization = async (dataDir: string, org = 'bench', options: { audit?: boolean } = {}): Promise<void> => {
  const c = await buildContainer({ ...defaultHostConfig(dataDir), logLevel: 'silent' });
  try {
    const pack: Pack = { name: 'bench', requires: ['system'], entities: [options.audit === false ? { ...item, audit: false } : item] };
    const create = resolve(c, CliTokens.Organizations).createWithPacks;
    const r = await create({ orgName: org, admin: { name: 'Admin', email: 'admin@example.com', password: 'Bench-pass-1' } }, [systemPack(), pack]);
    if (r._tag === 'Left') throw new Error(JSON.stringify(r.left));
  } finally {
    await closeContainer(c);
  }
};

/** One generated row: texts with Slovak letters, separators and quotes now and then. */
export const rowCells = (i: number): string[] => [
  `Item ${i}`,
  `C${String(i).padStart(7, '0')}`,
  String(i % 1000),
  `${(i % 10000) / 100}`.replace('.', ','),
  String(i / 7),
  String((i % 97) / 3),
  i % 2 === 0 ? 'true' : 'false',
  `${1 + (i % 28)}.${1 + (i % 12)}.2026`,
  new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  i % 3 === 0 ? 'Large' : '1',
  ...Array.from({ length: 10 }, (_, k) => (k === 0 && i % 50 === 0 ? `"Žltý; ""kôň"" ${i}"` : `value ${k} of row ${i}`)),
];

export const writeCsv = async (path: string, rows: number, from = 0): Promise<void> => {
  const out = createWriteStream(path);
  const write = async (s: string) => {
    if (!out.write(s)) await once(out, 'drain');
  };
  await write(`${COLUMNS.join(';')}\r\n`);
  let chunk = '';
  for (let i = from; i < from + rows; i++) {
    chunk += `${rowCells(i).join(';')}\r\n`;
    if (chunk.length > 1 << 16) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  out.end();
  await once(out, 'finish');
};
