import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { EntityRecord, FieldValue, Property, ViewColumn } from '../core.js';
import { useApi } from '../api/context.js';
import { ServerError } from '../api/client.js';
import { language, useT } from '../i18n.js';
import { formatValue, optionColor } from '../format.js';
import { caller } from '../state/session.js';
import { objectChangedEvent } from '../state/realtime.js';
import { Icon } from '../ui/icons.js';
import { nameInSentence } from '../list/entity-name-in-sentence.js';
import type { ViewBodyProps } from '../list/view-bodies.js';
import { useCardDrag } from './card-drag.js';
import { kanbanModel, type KanbanLane, type KanbanModel } from './kanban-model.js';
import { MoveToMenu } from './move-to-menu.js';

/**
 * The kanban body of the list screen (spec 001 section 2, view mode 4): a lane per option of the
 * status field with its count, cards showing the view's columns, a Show more per lane. A card the
 * user may update is dragged to another lane (mouse, pen, or a finger on its handle) or moved with
 * its 'Move to' menu; a failed save brings it back and says why above the board.
 */
const KanbanBoard = ({ model: list, linkOf, onShowAll }: ViewBodyProps) => {
  useSignals();
  const t = useT();
  const api = useApi();
  const board = useMemo(() => kanbanModel({ api, list, caller: () => caller.value! }), [api, list]);
  useEffect(() => board.start(), [board]);
  const name = list.entity.value.logicalName;
  // A change on the server (another user, or this one elsewhere) reloads the board.
  useEffect(() => {
    const ev = objectChangedEvent(name);
    window.addEventListener(ev, board.serverChanged);
    return () => window.removeEventListener(ev, board.serverChanged);
  }, [name, board]);

  const field = board.field.value;
  if (isLeft(field)) {
    return (
      <p className="empty kb-problem" role="alert">
        {t('MsgKanbanNoField', { field: field.left.field })}
      </p>
    );
  }
  return <Board board={board} list={list} linkOf={linkOf} onShowAll={onShowAll} field={field.right} />;
};
export default KanbanBoard;

/** Screen-reader announcement of a move: its outcome, read politely. */
const useAnnouncement = () => {
  const [text, setText] = useState('');
  return { text, say: (s: string) => setText(s) };
};

const Board = ({ board, list, linkOf, onShowAll, field }: { board: KanbanModel; field: Property } & Pick<ViewBodyProps, 'linkOf' | 'onShowAll'> & { list: ViewBodyProps['model'] }) => {
  useSignals();
  const t = useT();
  const lanesEl = useRef<HTMLDivElement | null>(null);
  const focusAfterMove = useRef<string | null>(null);
  const announce = useAnnouncement();
  const lanes = board.lanes.value;
  const entity = list.entity.value;
  const props = useMemo(() => new Map(entity.properties.map((p) => [p.logicalName, p])), [entity]);
  // The view's columns, less the lane field (the lane says it) and the first (the card's title).
  const columns = list.columns.value;
  const [titleColumn, ...detail] = columns.length > 0 ? columns : [{ name: 'name' }];
  const details = detail.filter((c) => c.name !== field.logicalName);

  const laneLabel = (l: Pick<KanbanLane, 'kind' | 'label'>) => (l.kind === 'empty' ? t('LblNone') : l.label);
  const cardOf = (id: string) => lanes?.flatMap((l) => l.cards).find((c) => String(c.id) === id);

  const moveTo = async (id: string, key: string) => {
    const card = cardOf(id);
    const lane = lanes?.find((l) => l.key === key);
    if (!card || !lane) return;
    const title = String(card[titleColumn.name] ?? card.name ?? '');
    const r = await board.move(id, key);
    if (r === 'Moved') announce.say(t('MsgKanbanMoved', { name: title, lane: laneLabel(lane) }));
  };
  const drag = useCardDrag(
    lanesEl,
    (id, key) => {
      const card = cardOf(id);
      return !!card && board.targetsOf(card).some((l) => l.key === key);
    },
    (id, key) => void moveTo(id, key),
  );

  const failure = board.failure.value;
  const loadError = board.loadError.value;
  const empty = lanes !== null && board.total.value === 0;
  return (
    <div className="kanban" aria-busy={board.loading.value}>
      <span className="sr-only" aria-live="polite">
        {announce.text}
      </span>
      {failure && (
        <div className="kb-alert" role="alert">
          <Icon name="alert" />
          <span>{t('MsgKanbanMoveFailed', { name: failure.title, message: messageOf(failure.error) })}</span>
          <button type="button" className="btn btn-plain icon-only" aria-label={t('CmdClose')} title={t('CmdClose')} onClick={board.dismissFailure}>
            <Icon name="close" />
          </button>
        </div>
      )}
      {loadError !== null && (
        <div className="kb-alert" role="alert">
          <Icon name="alert" />
          <span>{t('MsgListLoadFailed', { message: messageOf(loadError) })}</span>
          <button type="button" className="btn btn-plain" onClick={() => void board.load()}>
            <Icon name="refresh" /> {t('CmdRefresh')}
          </button>
        </div>
      )}
      {empty && list.filtered.value && (
        <p className="kb-empty-note">
          {t('MsgNoRecordsMatchFilters', { entities: nameInSentence(entity.displayNamePlural, language.value) })}
          <span aria-hidden="true"> · </span>
          <button type="button" className="btn btn-link" onClick={onShowAll}>
            {t('CmdShowAll')}
          </button>
        </p>
      )}
      <div className="kb-lanes" ref={lanesEl}>
        {lanes === null
          ? [0, 1, 2].map((i) => (
              <section key={i} className="kb-lane" aria-hidden="true">
                <div className="kb-lane-head">
                  <span className="skeleton short" />
                </div>
                <ul className="kb-cards">
                  {[0, 1].map((j) => (
                    <li key={j} className="kb-card kb-skeleton">
                      <span className="skeleton" />
                      <span className="skeleton short" />
                    </li>
                  ))}
                </ul>
              </section>
            ))
          : lanes.map((lane) => {
              const headId = `kb-lane-${entity.logicalName}-${lane.key || 'none'}`;
              const over = drag.dragging?.over === lane.key;
              return (
                <section
                  key={lane.key}
                  className={`kb-lane${over ? ' kb-over' : ''}${drag.dragging && !over ? ' kb-dim' : ''}`}
                  data-lane-key={lane.key}
                  aria-labelledby={headId}
                  style={lane.color ? { ['--lane' as string]: lane.color } : undefined}
                >
                  <h2 className="kb-lane-head" id={headId}>
                    <span className="kb-dot" aria-hidden="true" />
                    <span className="kb-lane-title">{laneLabel(lane)}</span>
                    <span className="kb-count" aria-label={t('MsgRecordCount', { n: lane.count })}>
                      {lane.count}
                    </span>
                  </h2>
                  <ul className="kb-cards">
                    {lane.cards.map((card) => (
                      <Card
                        key={String(card.id)}
                        card={card}
                        laneKey={lane.key}
                        board={board}
                        title={titleColumn}
                        details={details}
                        props={props}
                        link={linkOf(card, titleColumn.form)}
                        dragging={drag.dragging?.id === String(card.id)}
                        onPointerDown={drag.onPointerDown}
                        focusAfterMove={focusAfterMove}
                        onMove={(key) => {
                          focusAfterMove.current = String(card.id);
                          void moveTo(String(card.id), key);
                        }}
                        laneLabel={laneLabel}
                      />
                    ))}
                  </ul>
                  {lane.cards.length === 0 && <p className="kb-lane-empty muted small">{t('MsgNoRecords')}</p>}
                  {lane.more && (
                    <button type="button" className="btn btn-plain kb-more" onClick={() => void board.showMore(lane.key)}>
                      {t('CmdShowMore')}
                    </button>
                  )}
                </section>
              );
            })}
      </div>
    </div>
  );
};

/** What a failure says: a server's text (the code and message), else the error's message. */
const messageOf = (e: unknown): string => (e instanceof ServerError ? e.text || e.message : e instanceof Error ? e.message : String(e));

const Card = ({
  card,
  laneKey,
  board,
  title,
  details,
  props,
  link,
  dragging,
  onPointerDown,
  focusAfterMove,
  onMove,
  laneLabel,
}: {
  card: EntityRecord;
  laneKey: string;
  board: KanbanModel;
  title: ViewColumn;
  details: readonly ViewColumn[];
  props: ReadonlyMap<string, Property>;
  link: string;
  dragging: boolean;
  onPointerDown: ReturnType<typeof useCardDrag>['onPointerDown'];
  focusAfterMove: React.MutableRefObject<string | null>;
  onMove: (key: string) => void;
  laneLabel: (l: KanbanLane) => string;
}) => {
  useSignals();
  const t = useT();
  const id = String(card.id);
  const movable = board.canMove(card);
  const saving = board.saving.value.has(id);
  const moveButton = useRef<HTMLButtonElement | null>(null);
  const titleText = formatValue(props.get(title.name), card[title.name] as FieldValue | undefined, card) || t('MsgUnknownTitle');
  const failed = board.failure.value?.id === id;
  // A card moved with the keyboard keeps the focus in its new lane (and back in its old one when the save fails).
  useEffect(() => {
    if (focusAfterMove.current !== id) return;
    const target = moveButton.current;
    if (target && document.activeElement !== target) target.focus();
    if (!saving) focusAfterMove.current = null;
  });
  const targets = movable ? board.targetsOf(card).map((l) => ({ key: l.key, label: laneLabel(l), color: l.color })) : [];
  return (
    <li
      className={`kb-card${movable ? ' can-drag' : ''}${dragging ? ' kb-dragging' : ''}${saving ? ' kb-saving' : ''}${failed ? ' kb-failed' : ''}`}
      aria-label={titleText}
      data-card-id={id}
      onPointerDown={movable && !saving ? (e) => onPointerDown(e, id, laneKey) : undefined}
      onDragStart={(e) => e.preventDefault()}
    >
      <div className="kb-card-head">
        {movable && (
          <span className="kb-handle" title={t('LblKanbanDragHandle')} aria-hidden="true">
            <svg width="14" height="20" viewBox="0 0 14 20" fill="currentColor">
              {[4, 10, 16].flatMap((y) => [<circle key={`a${y}`} cx="4" cy={y} r="1.6" />, <circle key={`b${y}`} cx="10" cy={y} r="1.6" />])}
            </svg>
          </span>
        )}
        <Link to={link} className="kb-title row-link" draggable={false}>
          {titleText}
        </Link>
      </div>
      {details.length > 0 && (
        <dl className="kb-fields">
          {details.map((c) => {
            const p = props.get(c.name);
            const v = card[c.name] as FieldValue | undefined;
            const text = formatValue(p, v, card);
            if (!text) return null;
            const color = optionColor(p, v);
            return (
              <div key={c.name} className="kb-field">
                <dt>{c.label ?? p?.displayName ?? c.name}</dt>
                <dd>
                  {color ? (
                    <span className="pill" style={{ ['--pill' as string]: color }}>
                      {text}
                    </span>
                  ) : (
                    text
                  )}
                </dd>
              </div>
            );
          })}
        </dl>
      )}
      {targets.length > 0 && (
        <div className="kb-card-foot">
          <MoveToMenu ref={moveButton} card={titleText} targets={targets} disabled={saving} onPick={onMove} />
        </div>
      )}
    </li>
  );
};
