import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Issue 12: the core's public surface (what `@tessera/core` exports to embedding hosts) is recorded in
 * core/etc/public-api.txt, one line per export with its type, so that a change to it is a visible diff
 * in review. After a deliberate change: `TESSERA_UPDATE_API_REPORT=1 npx vitest run tests/src/public-api-report.test.ts`.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const entry = `${root}core/src/index.ts`;
const reportPath = `${root}core/etc/public-api.txt`;

const publicApiReport = (): string => {
  const program = ts.createProgram([entry], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (!source) throw new Error(`cannot read ${entry}`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error('the core index is not a module');
  const flags = ts.TypeFormatFlags.NoTruncation;
  const lines = checker.getExportsOfModule(moduleSymbol).map((exported) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const kinds: string[] = [];
    if (symbol.flags & ts.SymbolFlags.Value) {
      const type = checker.getTypeOfSymbolAtLocation(symbol, source);
      kinds.push(`value ${checker.typeToString(type, undefined, flags)}`);
    }
    if (symbol.flags & ts.SymbolFlags.Type) {
      const type = checker.getDeclaredTypeOfSymbol(symbol);
      // An interface prints as its name alone: spell out its members so that a changed port shows.
      const members =
        symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class)
          ? ` { ${checker
              .getPropertiesOfType(type)
              .map((m) => `${m.getName()}: ${checker.typeToString(checker.getTypeOfSymbolAtLocation(m, source), undefined, flags)}`)
              .join('; ')} }`
          : '';
      kinds.push(`type ${checker.typeToString(type, undefined, flags | ts.TypeFormatFlags.InTypeAlias)}${members}`);
    }
    // Names without the import("...") prefix TypeScript adds: the report reads like the declarations.
    return `${exported.getName()}: ${kinds.join(' | ')}`.replace(/import\("[^"]*"(, \{[^)]*\})?\)\./g, '');
  });
  return `${lines.sort().join('\n')}\n`;
};

describe('the public API report of @tessera/core (issue 12)', () => {
  it('core/etc/public-api.txt records exactly what core/src/index.ts exports', () => {
    const report = publicApiReport();
    if (process.env.TESSERA_UPDATE_API_REPORT === '1' || !existsSync(reportPath)) writeFileSync(reportPath, report);
    expect(report).toBe(readFileSync(reportPath, 'utf8'));
  }, 60_000);

  it('every export of core/src/index.ts has a one-line doc comment', () => {
    const lines = readFileSync(entry, 'utf8').split('\n');
    const undocumented = lines
      .map((line, i) => ({ line, before: lines[i - 1] ?? '' }))
      .filter(({ line }) => line.startsWith('export '))
      .filter(({ before }) => !/^\/\*\*.*\*\/$/.test(before.trim()))
      .map(({ line }) => line);
    expect(undocumented).toEqual([]);
  });
});
