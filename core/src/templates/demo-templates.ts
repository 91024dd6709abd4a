import type { ReportBody } from './report-template.js';

/**
 * The demo's report templates (issue 20): an invoice with its lines and totals, and a travel
 * report with its legs. They show the body's parts (styles, variables, a table with a totals
 * row, a grid that stays on one page) and are where a new template is best copied from.
 */
const STYLES: ReportBody['styles'] = {
  default: { fontSize: 10 },
  title: { fontSize: 20, bold: true, color: '#1f3a5f' },
  muted: { fontSize: 9, color: '#555555' },
  th: { bold: true, background: '#e8eef5' },
  total: { bold: true, fontSize: 11 },
  right: { align: 'right' },
};

export const INVOICE_TEMPLATE: ReportBody = {
  title: 'Invoice {{invoicenumber}}',
  page: { size: 'A4', margins: 40 },
  styles: STYLES,
  variables: { lines: { entity: 'invoicedetail', parentField: 'invoiceid', orderBy: 'createdon' } },
  content: [
    { type: 'text', text: 'Invoice {{invoicenumber}}', style: 'title' },
    { type: 'text', text: '{{name}}', style: 'muted' },
    {
      type: 'grid',
      widths: [1, 2, 1, 2],
      cells: [
        ['Customer', '{{customerid}}', 'Invoice date', '{{invoicedate | date}}'],
        ['Contact', '{{contactid | default:-}}', 'Due date', '{{duedate | date}}'],
      ],
    },
    {
      type: 'table',
      rows: 'lines',
      headerStyle: 'th',
      totalStyle: 'total',
      columns: [
        { header: '#', text: '{{$index}}', width: 0.4, align: 'right' },
        { header: 'Product', text: '{{productid}}', width: 2.6, total: 'Total' },
        { header: 'Quantity', text: '{{quantity | number:2}}', width: 1.2, align: 'right', total: '{{lines | count}} items' },
        { header: 'Price per unit', text: '{{priceperunit | money}}', width: 1.4, align: 'right' },
        { header: 'Discount %', text: '{{discount | number}}', width: 1.1, align: 'right' },
        { header: 'Amount', text: '{{totalamount | money}}', width: 1.4, align: 'right', total: '{{lines | sum:totalamount | money}}' },
      ],
    },
    { type: 'grid', widths: [4, 1.4], cells: [['Total amount', '{{totalamount | money}}']], style: 'total', border: true },
    { type: 'text', text: '[if description]{{description}}[end]', style: 'muted' },
  ],
};

export const TRAVEL_REPORT_TEMPLATE: ReportBody = {
  title: 'Travel report {{name}}',
  page: { size: 'A4', margins: 40 },
  styles: STYLES,
  content: [
    { type: 'text', text: 'Travel report', style: 'title' },
    { type: 'text', text: '{{name}} · {{report_date | date}}', style: 'muted' },
    {
      type: 'grid',
      widths: [1, 2],
      cells: [
        ['Route', '{{name_locations}}'],
        ['From', '{{startdate | datetime}}'],
        ['To', '{{enddate | datetime}}'],
      ],
    },
    {
      type: 'table',
      rows: 'legs_json',
      headerStyle: 'th',
      totalStyle: 'total',
      columns: [
        { header: '#', text: '{{$index}}', width: 0.4, align: 'right' },
        { header: 'Address', text: '{{address}}', width: 3, total: 'Total' },
        { header: 'Departure', text: '{{startdate | datetime}}', width: 1.5 },
        { header: 'Arrival', text: '{{enddate | datetime}}', width: 1.5 },
        { header: 'Distance (km)', text: '{{distance | number:1}}', width: 1, align: 'right', total: '{{total_distance | number:1}}' },
        { header: 'Travel cost', text: '{{travel_cost | money}}', width: 1.2, align: 'right', total: '{{legs_json | sum:travel_cost | money}}' },
        { header: 'Meals', text: '{{food_cost | money}}', width: 1, align: 'right', total: '{{legs_json | sum:food_cost | money}}' },
      ],
    },
    { type: 'grid', widths: [4, 1.4], cells: [['Total expense', '{{total_expense | money}}']], style: 'total', border: true },
  ],
};

/** The demo company's logo: a 64 x 64 PNG (a white T on navy with an amber dot), the demo's report_image 'Logo'. */
export const DEMO_LOGO_NAME = 'Logo';
export const DEMO_LOGO_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAMAAACdt4HsAAAAYFBMVEX////w8vTh5erS2N/DytS0vcqlsL+Wo7SIlqp5iZ9qfJRbb4pMYX89VHQuR2ofOl/////9+fH78uP57Nb35sj137rz2azx057uzJHsxoPqwHXouWfms1nkrUzipj7goDBYTf1oAAAAt0lEQVR42u2XwQrDIBBEgwdFhN2TB/Gw//+XBZuEJC3UzFCSFt/ZfagxMDNN98GFJNqFpOBex6OeIh4UXvQk4nfzCuDJ+Y3BCSaQ5R6igsR5Awrz3ELABaEJEi5ITSC4QJpACW4o6Plth+D/BW+eyecVQzAEQ/BzglzNasYFxRoFFWSbyaCgLoIKCmzlKgF9BPoS6c/IP6TvRRw65tFBk466dNim4z5fOOjKw5cuvvbxxZOvvtfxADsAs5moUnyIAAAAAElFTkSuQmCC';

/** The demo's invoice template: INVOICE_TEMPLATE with the company logo, a report image (report-images.ts), at the top right. */
export const DEMO_INVOICE_TEMPLATE: ReportBody = {
  ...INVOICE_TEMPLATE,
  content: [{ type: 'image', image: { name: DEMO_LOGO_NAME }, width: 48, align: 'right' }, ...INVOICE_TEMPLATE.content],
};

/** The demo's report_image records: the logo its invoice template shows. */
export const demoReportImages = (uuid: () => string): Array<Record<string, string>> => [{ id: uuid(), name: DEMO_LOGO_NAME, body: DEMO_LOGO_PNG }];

/** The demo's report_template records (their ids are the demo's, so a re-run finds them). */
export const demoReportTemplates = (uuid: () => string): Array<Record<string, string | number>> => [
  { id: uuid(), name: 'Invoice', objectname: 'invoice', format: 1, body: JSON.stringify(DEMO_INVOICE_TEMPLATE, null, 2) },
  { id: uuid(), name: 'Invoice (Word)', objectname: 'invoice', format: 2, body: JSON.stringify(DEMO_INVOICE_TEMPLATE, null, 2) },
  { id: uuid(), name: 'Travel report', objectname: 'route_route', format: 1, body: JSON.stringify(TRAVEL_REPORT_TEMPLATE, null, 2) },
];
