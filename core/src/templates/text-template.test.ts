import fc from 'fast-check';
import { isLeft, isRight, type Either } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { checkReportBody, layoutReport, parseReportBody, MAX_REPORT_BODY_DEPTH } from './report-template.js';
import { TEMPLATE_ERRORS, type TemplateError } from './template-errors.js';
import { escapeTemplateText, fillTextTemplate, MAX_TEMPLATE_DEPTH, parseTextTemplate, renderTextTemplate, textFormatFor } from './text-template.js';
import { INVOICE_TEMPLATE, TRAVEL_REPORT_TEMPLATE } from './demo-templates.js';

const errorOf = <A>(x: Either<TemplateError, A>): string => (isLeft(x) ? x.left.message : 'no error');
const textOf = (x: Either<TemplateError, string>): string => (isRight(x) ? x.right : `error: ${x.left.message}`);

describe('spec 002 section 8, the template errors (exact texts)', () => {
  it("a [ without ] on its line is 'Control statement is not terminated with ]'", () => {
    expect(errorOf(parseTextTemplate('Hello [if name'))).toBe('Control statement is not terminated with ]');
    expect(errorOf(parseTextTemplate('[each lines\n]'))).toBe(TEMPLATE_ERRORS.notTerminated);
  });
  it("an [end] with nothing open is 'Invalid end statement'", () => {
    expect(errorOf(parseTextTemplate('text [end]'))).toBe('Invalid end statement');
    expect(errorOf(parseTextTemplate('[if a]x[end][end]'))).toBe('Invalid end statement');
  });
  it("an [if] or [each] left open is 'Not enough end statements.'", () => {
    expect(errorOf(parseTextTemplate('[if a]x'))).toBe('Not enough end statements.');
    expect(errorOf(parseTextTemplate('[each a][if b]x[end]'))).toBe('Not enough end statements.');
  });
  it("spec 002 section 4: a placeholder that is not closed is 'Invalid formatted text'", () => {
    expect(errorOf(parseTextTemplate('Total {{totalamount'))).toBe('Invalid formatted text');
    expect(errorOf(parseTextTemplate('{{a\n}}'))).toBe('Invalid formatted text');
    expect(errorOf(parseTextTemplate('{{a | nosuchfilter}}'))).toBe(TEMPLATE_ERRORS.invalidFormattedText);
  });
  it("an unknown statement, a body that is not a template body, or too deep nesting is 'Invalid template format'", () => {
    expect(errorOf(parseTextTemplate('[draft]'))).toBe('Invalid template format');
    expect(errorOf(parseReportBody('{not json'))).toBe('Invalid template format');
    expect(errorOf(parseReportBody('{"content": [{"type": "chart"}]}'))).toBe('Invalid template format');
    const deep = `${'['.repeat(0)}${Array.from({ length: MAX_TEMPLATE_DEPTH + 1 }, () => '[if a]').join('')}x${'[end]'.repeat(MAX_TEMPLATE_DEPTH + 1)}`;
    expect(errorOf(parseTextTemplate(deep))).toBe('Invalid template format');
    expect(errorOf(parseReportBody(`{"content":[],"x":${'['.repeat(MAX_REPORT_BODY_DEPTH + 5)}${']'.repeat(MAX_REPORT_BODY_DEPTH + 5)}}`))).toBe('Invalid template format');
  });
  it("a table naming an image the body lacks is 'Invalid template format'", () => {
    expect(errorOf(layoutReport({ content: [{ type: 'image', image: 'logo' }] }, {}))).toBe('Invalid template format');
  });
  it("the editor's check finds the first bad text of a body without data", () => {
    expect(checkReportBody(JSON.stringify(INVOICE_TEMPLATE))).toBeNull();
    expect(checkReportBody(JSON.stringify({ content: [{ type: 'grid', cells: [['ok', '{{a']] }] }))?.message).toBe('Invalid formatted text');
    expect(checkReportBody(JSON.stringify({ content: [{ type: 'table', rows: 'x', columns: [{ text: 'a', total: '[end]' }] }] }))?.message).toBe('Invalid end statement');
  });
  it('an error says where: the offset of the statement', () => {
    const r = parseTextTemplate('ab\n[end]');
    expect(isLeft(r) && r.left.at).toBe(3);
  });
});

describe('the text template language (docs/templates.md)', () => {
  const invoice = {
    invoicenumber: 'INV-00007',
    customerid: { id: 'a', name: 'account', label: 'Čačina s.r.o.' },
    totalamount: 1234.5,
    invoicedate: '2026-11-05',
    lines: [
      { productid: { id: 'p', name: 'product', label: 'Pump' }, totalamount: 1000 },
      { productid: { id: 'q', name: 'product', label: 'Valve' }, totalamount: 234.5 },
    ],
  };
  it('placeholders print fields, a lookup its label, filters left to right', () => {
    expect(textOf(fillTextTemplate('{{invoicenumber}} for {{customerid}}', [invoice]))).toBe('INV-00007 for Čačina s.r.o.');
    expect(textOf(fillTextTemplate('{{customerid | upper}}', [invoice]))).toBe('ČAČINA S.R.O.');
    expect(textOf(fillTextTemplate('{{totalamount | money}}', [invoice])).replace(/\s/g, ' ')).toBe('1 234,50 €');
    expect(textOf(fillTextTemplate('{{invoicedate | date}}', [invoice])).replace(/\s/g, '')).toBe('5.11.2026');
    expect(textOf(fillTextTemplate('{{lines | sum:totalamount | number:1}} in {{lines | count}}', [invoice])).replace(/\s/g, ' ')).toBe('1 234,5 in 2');
    expect(textOf(fillTextTemplate('{{missing | default:n/a}}', [invoice]))).toBe('n/a');
  });
  it('[each] repeats with the item first in scope and $index; [if]/[else]/[if not]', () => {
    expect(textOf(fillTextTemplate('[each lines]{{$index}}.{{productid}} ({{invoicenumber}});[end]', [invoice]))).toBe('1.Pump (INV-00007);2.Valve (INV-00007);');
    expect(textOf(fillTextTemplate('[if missing]yes[else]no[end]/[if not missing]empty[end]', [invoice]))).toBe('no/empty');
    expect(textOf(fillTextTemplate('[each legs]{{city}} [end]', [{ legs: '[{"city":"Nitra"},{"city":"Žilina"}]' }]))).toBe('Nitra Žilina ');
  });
  it('a document larger than the output limit is refused, not built', () => {
    const parsed = parseTextTemplate('[each a][each a][each a]xxxxxxxxxx[end][end][end]');
    const a = Array.from({ length: 300 }, () => ({}));
    expect(isRight(parsed) && errorOf(renderTextTemplate(parsed.right, [{ a }]))).toBe('Invalid template format');
  });
});

describe('properties (fast-check)', () => {
  const fragment = fc.oneof(
    fc.string(),
    fc.constantFrom('{{a}}', '{{b.c | upper}}', '{{n | money}}', '[if a]', '[if not b]', '[else]', '[each xs]', '[end]', '[', ']', '{{', '}}', '\\', '\\[', '{{a', '[x]'),
  );
  const source = fc.array(fragment, { maxLength: 12 }).map((xs) => xs.join(''));
  const scope = fc.record({ a: fc.oneof(fc.string(), fc.integer(), fc.constant(null)), b: fc.record({ c: fc.string() }), n: fc.double(), xs: fc.array(fc.record({ a: fc.string() }), { maxLength: 3 }) });

  it('any template that parses renders (over any data), and a parse failure is one of the spec texts', () => {
    const texts = Object.values(TEMPLATE_ERRORS) as string[];
    fc.assert(
      fc.property(source, scope, (src, data) => {
        const parsed = parseTextTemplate(src);
        if (isLeft(parsed)) return texts.includes(parsed.left.message);
        return isRight(renderTextTemplate(parsed.right, [data]));
      }),
      { numRuns: 500 },
    );
  });
  it('escaping round-trips: escaped text parses and renders back to itself', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => textOf(fillTextTemplate(escapeTemplateText(s), [{}])) === s),
      { numRuns: 500 },
    );
  });
});

describe('the demo templates (issue 20)', () => {
  it('the invoice fills its lines, the totals row and the total amount', () => {
    const model = layoutReport(INVOICE_TEMPLATE, { ...invoiceData(), lines: invoiceData().lines });
    expect(isRight(model)).toBe(true);
    if (!isRight(model)) return;
    expect(model.right.title).toBe('Invoice INV-00001');
    const table = model.right.blocks.find((b) => b.kind === 'table');
    expect(table && table.kind === 'table' && table.rows.length).toBe(2);
    expect(table && table.kind === 'table' && table.totals?.[5].replace(/\s/g, ' ')).toBe('150,00 €');
  });
  it('the travel report reads its legs from legs_json', () => {
    const model = layoutReport(TRAVEL_REPORT_TEMPLATE, { name: 'Trip to Nitra', legs_json: JSON.stringify([{ address: 'Nitra' }, { address: 'Bratislava', travel_cost: 12.5 }]) });
    const table = isRight(model) ? model.right.blocks.find((b) => b.kind === 'table') : undefined;
    expect(table && table.kind === 'table' && table.rows.map((r) => r[1])).toEqual(['Nitra', 'Bratislava']);
  });
});

const invoiceData = () => ({
  invoicenumber: 'INV-00001',
  name: 'Service',
  customerid: { id: 'a', name: 'account', label: 'Čačina s.r.o.' },
  totalamount: 150,
  lines: [
    { productid: { id: 'p', name: 'product', label: 'Pump' }, quantity: 1, priceperunit: 100, totalamount: 100 },
    { productid: { id: 'q', name: 'product', label: 'Valve' }, quantity: 2, priceperunit: 25, totalamount: 50 },
  ],
});

describe("times print in the reader's zone, days as stored", () => {
  it('datetime in Europe/Bratislava; a date-only value is the same day in any zone', () => {
    const fmt = textFormatFor('sk', 'Europe/Bratislava');
    expect(textOf(fillTextTemplate('{{t | datetime}}', [{ t: '2026-10-01T05:00:00Z' }], fmt)).replace(/\s/g, '')).toBe('1.10.202607:00');
    expect(textOf(fillTextTemplate('{{d | date}}', [{ d: '2026-10-01' }], textFormatFor('sk', 'America/Los_Angeles'))).replace(/\s/g, '')).toBe('1.10.2026');
    expect(textFormatFor('de', 'Not/AZone').timeZone).toBe('UTC');
  });
});
