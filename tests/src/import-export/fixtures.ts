import { isRight, type Either } from 'fp-ts/lib/Either.js';
import { InMemoryRecordStore, systemCaller, withSystemFields, type Entity, type ImportFileEvent, type ImportSource } from '@tessera/core/internal';

export const must = <A>(e: Either<unknown, A>): A => {
  if (!isRight(e)) throw new Error(`expected Right, got ${JSON.stringify(e.left)}`);
  return e.right;
};

/** A contact entity with a field of every importable kind. */
export const contact: Entity = must(
  withSystemFields({
    logicalName: 'contact',
    displayName: 'Contact',
    displayNamePlural: 'Contacts',
    properties: [
      { logicalName: 'city', displayName: 'City', type: 'String', max: 100 },
      { logicalName: 'notes', displayName: 'Notes', type: 'String', flags: ['MultiLine'] },
      { logicalName: 'age', displayName: 'Age', type: 'Integer' },
      { logicalName: 'salary', displayName: 'Salary', type: 'Money' },
      { logicalName: 'score', displayName: 'Score', type: 'Float' },
      { logicalName: 'vip', displayName: 'VIP', type: 'Boolean' },
      { logicalName: 'birthday', displayName: 'Birthday', type: 'DateTime', flags: ['DateOnly'] },
      { logicalName: 'lastcall', displayName: 'Last Call', type: 'DateTime' },
      {
        logicalName: 'kind',
        displayName: 'Kind',
        type: 'Integer',
        flags: ['OptionSet'],
        richOptions: [
          { value: 1, label: 'Lead' },
          { value: 2, label: 'Customer' },
        ],
      },
      { logicalName: 'managerid', displayName: 'Manager', type: 'Lookup', targets: ['contact'] },
    ],
  }),
);

export const caller = systemCaller();

export const memoryStore = (entities: readonly Entity[] = [contact]) => {
  let n = 0;
  return new InMemoryRecordStore(
    (name) => entities.find((e) => e.logicalName === name),
    { now: () => new Date('2026-11-21T10:00:00Z') },
    { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` },
  );
};

export const collect = async (source: ImportSource): Promise<ImportFileEvent[]> => {
  const out: ImportFileEvent[] = [];
  for await (const e of source()) out.push(...(Array.isArray(e) ? (e as ImportFileEvent[]) : [e as ImportFileEvent]));
  return out;
};
