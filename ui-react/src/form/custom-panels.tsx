import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Panel } from '../core.js';
import type { PanelContext } from './panel-context.js';

/** What every custom panel gets from the form: its panel metadata (customComponentParameters) and the form's context. */
export type CustomPanelProps = { panel: Panel; ctx: PanelContext };

/**
 * The components of Custom panels, keyed by the panel's `customComponent` (spec 001 section 3:
 * the travel report's journey and journeydietary, lineitems, familybudget, communitychart, the
 * survey panels). Each is loaded on demand with React.lazy, so a panel's code (and uPlot) is
 * fetched only by forms that show it. A name without an entry shows 'Check Configuration'.
 * To add one: a component file of its own with a default export taking CustomPanelProps, and one
 * line here.
 */
export const CUSTOM_PANELS: Readonly<Record<string, LazyExoticComponent<ComponentType<CustomPanelProps>>>> = {
  lineitems: lazy(() => import('../lineitems/line-items-panel.js')),
  familybudget: lazy(() => import('../budget/family-budget-panel.js')),
  communitychart: lazy(() => import('../community/community-chart-panel.js')),
  journey: lazy(() => import('../travel/journey-panel.js')),
  journeydietary: lazy(() => import('../travel/journey-dietary-panel.js')),
  surveydesign: lazy(() => import('../surveys/survey-design-panel.js')),
  surveyresponse: lazy(() => import('../surveys/survey-response-panel.js')),
  activityfeed: lazy(() => import('../activity/activity-feed-panel.js')),
};
