import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';
import { useBlocker, useSearchParams } from 'react-router';
import { useT } from '../i18n.js';
import { ImportPanel, useImportModel } from './import-panel.js';

/**
 * /{appid}/import (spec 002 section 2): the Import screen with the object selector. `?entity=`
 * chooses the object first (a menu item or a link may name it).
 */
export const ImportPage = () => {
  useSignals();
  const t = useT();
  const [params] = useSearchParams();
  const model = useImportModel();
  const wanted = params.get('entity');
  useEffect(() => {
    if (model && wanted && model.choices.some((e) => e.logicalName === wanted)) model.setEntity(wanted);
  }, [model, wanted]);
  // While rows are being written the screen stays (Cancel stops them); closing the tab asks first.
  const writing = model?.phase.value === 'writing';
  const blocker = useBlocker(writing);
  useEffect(() => {
    if (blocker.state === 'blocked') blocker.reset();
  }, [blocker]);
  useEffect(() => {
    if (!writing) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [writing]);
  if (!model) return <div className="spinner" aria-busy="true" />;
  return (
    <div className="screen import-screen">
      <div className="screen-head">
        <div className="title-row">
          <h1 className="screen-title">{t('MenuImport')}</h1>
        </div>
      </div>
      <ImportPanel model={model} />
    </div>
  );
};
