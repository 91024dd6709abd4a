import * as t from 'io-ts';
import { Guid } from './guid.js';
import { WireRecord } from './text-fields.js';

/** GET /api/survey/{org}/{key}: the page of an open survey (meta and panel parsed). */
export const SurveyPageAnswer = t.type(
  { title: t.unknown, submit_button: t.unknown, css_style: t.unknown, object_name: t.unknown, meta: t.unknown, panel: t.unknown, answers: t.unknown },
  'survey page',
);
export type SurveyPageAnswer = t.TypeOf<typeof SurveyPageAnswer>;

/** POST /api/survey/{org}/{key}: the answers, field name to value. */
export const SurveyAnswers = WireRecord;

/** POST /api/surveytarget: 'save to target' of a survey record; the answers as the panel shows them (else its stored body). */
export const SurveySaveToTargetRequest = t.exact(
  t.intersection([t.type({ id: Guid }), t.partial({ answers: WireRecord })], 'survey save to target'),
);
export type SurveySaveToTargetRequest = t.TypeOf<typeof SurveySaveToTargetRequest>;
