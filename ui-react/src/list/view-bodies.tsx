import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { EntityRecord, ViewModeName } from '../core.js';
import type { ListModel } from './list-model.js';

/** What every view mode's body gets from the list screen. */
export type ViewBodyProps = {
  model: ListModel;
  /** the route of a record's form (optionally a named form) */
  linkOf: (r: EntityRecord, form?: string) => string;
  /** clears the search and the quick filters (the empty state's Show all) */
  onShowAll: () => void;
};

/**
 * The bodies of the view modes other than the table (spec 001 section 2: map 1, calendar 2,
 * chart 3, kanban 4). Each is loaded on demand with React.lazy, so uPlot, Leaflet and the
 * calendar stay out of the first bundle. A mode without an entry here falls back to the table,
 * and the mode switcher does not offer it.
 */
export const VIEW_BODIES: Partial<Record<ViewModeName, LazyExoticComponent<ComponentType<ViewBodyProps>>>> = {
  chart: lazy(() => import('../chart/chart-view.js')),
  calendar: lazy(() => import('../calendar/calendar-view.js')),
  kanban: lazy(() => import('../kanban/kanban-board.js')),
  map: lazy(() => import('../map/map-view.js')),
};

/** The modes a switcher offers: the view's modes that have a body (the table always does). */
export const shownModes = (modes: readonly ViewModeName[]): ViewModeName[] => modes.filter((m) => m === 'list' || VIEW_BODIES[m] !== undefined);
