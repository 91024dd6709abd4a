// Document generation benchmark (issue 20): the demo invoice template filled from an invoice and
// drawn by the report renderers, in this process (the time of POST /api/document past the reads).
// 1. A 1-page invoice PDF (10 lines): median of 20 runs after a warm-up. Goal: under 200 ms.
// 2. A 50-page invoice PDF (lines until the PDF has 50 pages): median of 3 runs. Goal: under 3 s.
// 3. The same two as Word files (docx), for the record (no goal of the issue; the same bounds).
// Each time covers layoutReport (the template filled) and the renderer (bytes out).
// Run: node --import tsx tests/bench/document-bench.ts (or npm run bench).
import { performance } from 'node:perf_hooks';
import { renderReportDocx, renderReportPdf } from '@tessera/adapters-graph';
import { INVOICE_TEMPLATE, layoutReport } from '@tessera/core/internal';

const invoice = (lines: number) => ({
  invoicenumber: 'INV-00042',
  name: 'Pump service',
  customerid: { id: 'a', name: 'account', label: 'Čačina s.r.o.' },
  invoicedate: '2026-11-05',
  duedate: '2026-11-19',
  totalamount: lines * 25,
  lines: Array.from({ length: lines }, (_, k) => ({ productid: { id: String(k), name: 'product', label: `Ventil DN${k % 90} s nerezovým telesom` }, quantity: 2, priceperunit: 12.5, discount: 0, totalamount: 25 })),
});

const draw = async (lines: number, format: 'pdf' | 'docx'): Promise<Buffer> => {
  const model = layoutReport(INVOICE_TEMPLATE, invoice(lines));
  if (model._tag === 'Left') throw new Error(model.left.message);
  const out = format === 'pdf' ? await renderReportPdf(model.right) : await renderReportDocx(model.right);
  if (out._tag === 'Left') throw new Error(out.left.message);
  return out.right;
};

const pages = (pdf: Buffer): number => (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;

const median = async (runs: number, f: () => Promise<unknown>): Promise<number> => {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
};

const report = (name: string, ms: number, goal: number) =>
  console.log(`bench ${name}: ${Math.round(ms)} ms (goal ${goal}) ${ms < goal ? 'ok' : 'short'}`);

await draw(10, 'pdf');
await draw(10, 'docx');
if (pages(await draw(10, 'pdf')) !== 1) throw new Error('the 10-line invoice is not one page');

// The lines of 50 pages: grow until the PDF has 50 pages.
let lines = 50 * 30;
while (pages(await draw(lines, 'pdf')) < 50) lines += 100;
while (pages(await draw(lines - 10, 'pdf')) >= 50) lines -= 10;

report('invoice PDF, 1 page (10 lines)', await median(20, () => draw(10, 'pdf')), 200);
report(`invoice PDF, 50 pages (${lines} lines)`, await median(3, () => draw(lines, 'pdf')), 3000);
report('invoice Word, 10 lines', await median(20, () => draw(10, 'docx')), 200);
report(`invoice Word, ${lines} lines`, await median(3, () => draw(lines, 'docx')), 3000);
