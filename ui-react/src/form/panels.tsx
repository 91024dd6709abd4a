import { Suspense, useRef, useState, type ReactNode } from 'react';
import type { Panel } from '../core.js';
import { DEFAULT_MIN_COLUMN_WIDTH, DEFAULT_SPLIT_SIZES, SPLIT_BREAKPOINT } from '../core.js';
import { useT } from '../i18n.js';
import { Icon } from '../ui/icons.js';
import { AddressOfPanel } from '../address/address-of-panel.js';
import { AssociatedListPanel, associatedListTitle } from './associated-list-panel.js';
import { CUSTOM_PANELS } from './custom-panels.js';
import { CloudFilesPanel } from '../cloud-files/cloud-files-panel.js';
import { CustomizeField, CustomizePanelFrame } from '../customize/form-customize.js';
import { FieldRow } from './field-row.js';
import { continueWizard } from './stage-field-wizard.js';
import type { PanelContext } from './panel-context.js';
import { useWidth } from './use-width.js';

export type { PanelContext } from './panel-context.js';

// The panel tree of a form (spec 001 section 2). The kinds that hold panels stay in this file: they draw each other.

/** Fields: two columns, one when the panel is narrower than minColumnWidth (default 400 px). */
const FieldsPanel = ({ panel, ctx }: { panel: Panel; ctx: PanelContext }) => {
  const [ref, width] = useWidth<HTMLDivElement>();
  const min = panel.minColumnWidth ?? DEFAULT_MIN_COLUMN_WIDTH;
  const one = width > 0 && width < min;
  return (
    <section className="panel panel-fields" aria-label={panel.label}>
      {panel.label && panel.showLabel !== false && <h2 className="panel-title">{panel.label}</h2>}
      <div ref={ref} className="field-grid" style={{ gridTemplateColumns: one ? '1fr' : (panel.gridColumns ?? 'repeat(2, minmax(0, 1fr))') }}>
        {(panel.fields ?? []).map((f, i) => (
          // Issue 15: in customize mode each field gets its tools (form-customize.tsx); otherwise the row alone.
          <CustomizeField key={`${f.name}-${i}`} panel={panel.name} index={i} field={f}>
            <FieldRow f={f} ctx={ctx} />
          </CustomizeField>
        ))}
      </div>
      {/* An address among the fields: the address-with-map field (issue 14). */}
      <AddressOfPanel panel={panel} ctx={ctx} />
      {(panel.panels ?? []).map((p) => (
        <PanelView key={p.name} panel={p} ctx={ctx} />
      ))}
    </section>
  );
};

/** Tabs: Normal, or a Wizard with step numbers, Go back and Continue (spec 001 section 2). */
const TabsPanel = ({ panel, ctx }: { panel: Panel; ctx: PanelContext }) => {
  const t = useT();
  const tabs = panel.panels ?? [];
  // A wizard opens at the stored stage index (its progress).
  const stage = Number(ctx.record.process_stage_index);
  const [active, setActive] = useState(() => (panel.mode === 'Wizard' && Number.isInteger(stage) ? Math.max(0, Math.min(stage, (panel.panels?.length ?? 1) - 1)) : 0));
  const [counts, setCounts] = useState<Record<string, number>>({});
  const wizard = panel.mode === 'Wizard';
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const go = (i: number) => {
    const n = Math.max(0, Math.min(tabs.length - 1, i));
    setActive(n);
    refs.current[n]?.focus();
  };
  const current = tabs[active];
  const titleOf = (p: Panel) => {
    const base = p.type === 'AssociatedList' ? associatedListTitle(p) : (p.label ?? p.name);
    return p.type === 'AssociatedList' && counts[p.name] !== undefined ? `${base} (${counts[p.name]})` : base;
  };
  return (
    <section className={`panel panel-tabs ${wizard ? 'wizard' : ''}`} aria-label={panel.label}>
      <div className="tablist" role="tablist" aria-label={panel.label ?? panel.name}>
        {tabs.map((p, i) => (
          <button
            key={p.name}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${panel.name}-${i}`}
            aria-selected={i === active}
            aria-controls={`tabpanel-${panel.name}-${i}`}
            tabIndex={i === active ? 0 : -1}
            className={`tab-btn ${i === active ? 'on' : ''} ${wizard && i < active ? 'done' : ''}`}
            onClick={() => (wizard ? undefined : setActive(i))}
            disabled={wizard && i > active}
            onKeyDown={(e) => {
              if (wizard) return;
              if (e.key === 'ArrowRight') go(i + 1);
              else if (e.key === 'ArrowLeft') go(i - 1);
              else if (e.key === 'Home') go(0);
              else if (e.key === 'End') go(tabs.length - 1);
            }}
          >
            {wizard && <span className="step-no">{i < active ? <Icon name="check" size={14} /> : i + 1}</span>}
            {titleOf(p)}
          </button>
        ))}
      </div>
      {tabs.map((p, i) => (
        <div key={p.name} role="tabpanel" id={`tabpanel-${panel.name}-${i}`} aria-labelledby={`tab-${panel.name}-${i}`} hidden={i !== active} className="tabpanel">
          {p.type === 'AssociatedList' ? (
            <AssociatedListPanel panel={p} ctx={ctx} onCount={(n) => setCounts((c) => (c[p.name] === n ? c : { ...c, [p.name]: n }))} />
          ) : (
            i === active && <PanelView panel={p} ctx={ctx} />
          )}
        </div>
      ))}
      {wizard && current && (
        <div className="wizard-nav">
          <span className="muted small">{t('MsgStep', { n: active + 1, total: tabs.length })}</span>
          <div className="row gap">
            <button type="button" className="btn btn-plain" disabled={active === 0} onClick={() => setActive(active - 1)}>
              <Icon name="chevronLeft" /> {t('CmdGoBack')}
            </button>
            <button
              type="button"
              className="btn btn-primary"
              disabled={active >= tabs.length - 1 || ctx.readOnly}
              onClick={async () => {
                if (await continueWizard(panel, active, ctx)) setActive(active + 1);
              }}
            >
              {t('CmdContinue')} <Icon name="chevronRight" />
            </button>
          </div>
        </div>
      )}
    </section>
  );
};

/** Split: two columns (default 2fr 3fr) that stack below 900 px. */
const SplitPanel = ({ panel, ctx }: { panel: Panel; ctx: PanelContext }) => {
  const [ref, width] = useWidth<HTMLDivElement>();
  const sizes = panel.sizes ?? [...DEFAULT_SPLIT_SIZES];
  const stacked = width > 0 && width < SPLIT_BREAKPOINT;
  return (
    <div ref={ref} className="panel-split" style={{ gridTemplateColumns: stacked ? '1fr' : sizes.join(' ') }}>
      {(panel.panels ?? []).map((p) => (
        <PanelView key={p.name} panel={p} ctx={ctx} />
      ))}
    </div>
  );
};

/** Flex: a row or a column with the given sizes. */
const FlexPanel = ({ panel, ctx }: { panel: Panel; ctx: PanelContext }) => (
  <div className="panel-flex" style={{ flexDirection: panel.direction ?? 'row' }}>
    {(panel.panels ?? []).map((p, i) => (
      <div key={p.name} style={{ flex: panel.sizes?.[i] ?? '1 1 0', minWidth: 0 }}>
        <PanelView panel={p} ctx={ctx} />
      </div>
    ))}
  </div>
);

/** One panel of the tree; in customize mode (issue 15) framed with its tools (form-customize.tsx). */
export const PanelView = ({ panel, ctx }: { panel: Panel; ctx: PanelContext }): ReactNode => (
  <CustomizePanelFrame panel={panel}>
    <PanelBody panel={panel} ctx={ctx} />
  </CustomizePanelFrame>
);

/** One panel of the tree, by type; any other type shows 'Unknown panel type'. */
const PanelBody = ({ panel, ctx }: { panel: Panel; ctx: PanelContext }): ReactNode => {
  const t = useT();
  switch (panel.type) {
    case 'Fields':
      return <FieldsPanel panel={panel} ctx={ctx} />;
    case 'Tabs':
      return <TabsPanel panel={panel} ctx={ctx} />;
    case 'Split':
      return <SplitPanel panel={panel} ctx={ctx} />;
    case 'Flex':
      return <FlexPanel panel={panel} ctx={ctx} />;
    case 'AssociatedList':
      return (
        <section className="panel" aria-label={panel.label}>
          {panel.label && <h2 className="panel-title">{associatedListTitle(panel)}</h2>}
          <AssociatedListPanel panel={panel} ctx={ctx} />
        </section>
      );
    case 'CloudFiles':
      return <CloudFilesPanel panel={panel} ctx={ctx} />;
    case 'Custom': {
      const Body = panel.customComponent ? CUSTOM_PANELS[panel.customComponent] : undefined;
      if (!Body) return <p className="notice panel">{t('MsgCheckConfiguration')}</p>;
      return (
        <Suspense fallback={<p className="panel muted">{t('MsgLoading')}</p>}>
          <Body panel={panel} ctx={ctx} />
        </Suspense>
      );
    }
    default:
      return <p className="notice panel error-text">{t('MsgUnknownPanelType')}</p>;
  }
};
