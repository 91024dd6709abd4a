import * as t from 'io-ts';
import { WireRecord } from './text-fields.js';

/** GET /api/survey/{org}/{key}: the page of an open survey (meta and panel parsed). */
export const SurveyPageAnswer = t.type(
  { title: t.unknown, submit_button: t.unknown, css_style: t.unknown, object_name: t.unknown, meta: t.unknown, panel: t.unknown, answers: t.unknown },
  'survey page',
);
export type SurveyPageAnswer = t.TypeOf<typeof SurveyPageAnswer>;

/** POST /api/survey/{org}/{key}: the answers, field name to value. */
export const SurveyAnswers = WireRecord;
