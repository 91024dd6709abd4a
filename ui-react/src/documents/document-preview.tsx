import type { CSSProperties } from 'react';
import type { DocBlock, DocumentModel, ResolvedStyle } from '@tessera/core/internal';

/** Page widths in points, portrait, for the paper's proportions and margins. */
const PAGE_POINTS = { A4: 595, A5: 420, LETTER: 612 } as const;

const styleOf = (s: ResolvedStyle): CSSProperties => ({
  fontSize: `${s.fontSize / 10}em`,
  fontWeight: s.bold ? 700 : 400,
  fontStyle: s.italic ? 'italic' : 'normal',
  textAlign: s.align,
  color: s.color,
  ...(s.background ? { background: s.background } : {}),
});

const percents = (weights: readonly number[]): string[] => {
  const sum = weights.reduce((a, b) => a + b, 0) || 1;
  return weights.map((w) => `${(w / sum) * 100}%`);
};

const imageSource = (data: string): string => (data.startsWith('data:') ? data : `data:image/png;base64,${data}`);

const Block = ({ block, pageWidth }: { block: DocBlock; pageWidth: number }) => {
  switch (block.kind) {
    case 'pageBreak':
      return <hr className="doc-page-break" />;
    case 'text':
      return block.text ? (
        <p className="doc-text" style={styleOf(block.style)}>
          {block.text}
        </p>
      ) : null;
    case 'image':
      return (
        <div className="doc-image" style={{ textAlign: block.align }}>
          <img src={imageSource(block.data)} alt="" style={block.width ? { width: `${Math.min(100, (block.width / pageWidth) * 100)}%` } : { maxWidth: '100%' }} />
        </div>
      );
    case 'grid': {
      const widths = percents(block.widths);
      return (
        <table className={`doc-grid ${block.border ? 'doc-bordered' : ''}`} style={styleOf(block.style)}>
          <colgroup>
            {widths.map((w, k) => (
              <col key={k} style={{ width: w }} />
            ))}
          </colgroup>
          <tbody>
            {block.rows.map((r, i) => (
              <tr key={i}>
                {widths.map((_, k) => (
                  <td key={k}>{r[k] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
    }
    case 'table': {
      const widths = percents(block.columns.map((c) => c.width));
      return (
        <table className="doc-table" style={styleOf(block.style)}>
          <colgroup>
            {widths.map((w, k) => (
              <col key={k} style={{ width: w }} />
            ))}
          </colgroup>
          <thead>
            <tr style={styleOf(block.headerStyle)}>
              {block.columns.map((c, k) => (
                <th key={k} style={{ textAlign: c.align }}>
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {block.rows.map((r, i) => (
              <tr key={i}>
                {block.columns.map((c, k) => (
                  <td key={k} style={{ textAlign: c.align }}>
                    {r[k] ?? ''}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          {block.totals && (
            <tfoot>
              <tr style={styleOf(block.totalStyle)}>
                {block.columns.map((c, k) => (
                  <td key={k} style={{ textAlign: c.align }}>
                    {block.totals?.[k] ?? ''}
                  </td>
                ))}
              </tr>
            </tfoot>
          )}
        </table>
      );
    }
  }
};

/**
 * The template editor's live preview: the filled layout model drawn as a sheet of paper with the
 * page's proportions and margins (the PDF's pagination is the renderer's; page breaks show as
 * lines). The paper stays white in dark mode, as the printed page will be.
 */
export const DocumentPreview = ({ model }: { model: DocumentModel }) => {
  const width = model.page.orientation === 'landscape' ? Math.round(PAGE_POINTS[model.page.size] * 1.414) : PAGE_POINTS[model.page.size];
  const pad = `${(model.page.margins / width) * 100}%`;
  return (
    <article className="doc-paper" style={{ padding: pad }} aria-label={model.title}>
      {model.blocks.map((b, i) => (
        <Block key={i} block={b} pageWidth={width - 2 * model.page.margins} />
      ))}
    </article>
  );
};
