import * as t from 'io-ts';
import { UserContext } from '../metadata/user-context.js';
import { AccessTokenAnswer, DistanceAnswer, DistanceRequest } from './cloud.js';
import { BlobDownloadQuery, BlobUploadAnswer, BlobUploadQuery } from './blobs.js';
import { call, type CallContract } from './contract.js';
import { ProviderSettingsAnswer } from './provider-settings.js';
import { CloudCalendarAnswer, CloudCalendarRequest, DriveDeleteRequest, DriveFileAnswer, DriveFolderRequest, DriveListAnswer, DriveListRequest, DriveRenameRequest, DriveUploadQuery } from './drive.js';
import { GeocodeAnswer, GeocodeRequest } from './geocode.js';
import { DocumentRequestBody } from './documents.js';
import { ExportFileQuery, ExportJobAnswer, ExportJobQuery, ExportLinkAnswer, ExportLinkRequest, ExportRequestBody, FileAnswer, ImportCommitRequest, ImportOutcomeAnswer, ImportPreviewAnswer, ImportTemplateQuery, ImportUploadQuery } from './files.js';
import { ExecuteMultipleAnswer, ExecuteMultipleRequest, FetchAnswer, FetchRequestBody, WriteItemCodec } from './records.js';
import { AppErrorReport, EndSessionQuery, SessionList, StreamQuery, StreamTokenAnswer, UserContextQuery } from './sessions.js';
import {
  ForcedPasswordChangeForm,
  LoginForm,
  MagicLinkForm,
  PasswordChangeForm,
  PuzzleAnswer,
  SignInAnswer,
  SignUpForm,
  TrialForm,
} from './sign-in.js';
import { SurveyAnswers, SurveyPageAnswer, SurveySaveToTargetRequest } from './surveys.js';
import { NoInput, queryText, TextAnswer } from './text-fields.js';
import { WhatsNextAnswer, WhatsNextRequest } from './whats-next.js';
import { MetadataAppliedAnswer, MetadataApplyBody, MetadataChangeBody, MetadataPlanAnswer } from './metadata-editor.js';

const ProviderStartQuery = t.type({ redirectUrl: queryText, origin: queryText }, 'sign-in query');
const ProviderSignUpQuery = t.type({ redirectUrl: queryText, origin: queryText, puzzle: queryText }, 'sign-up query');
/** The provider's answer: the code flow's parameters, read by the identity provider adapter. */
const ProviderCallback = t.UnknownRecord;

/**
 * The HTTP contract: every call of docs/api.md, once. The server mounts each with its handler
 * (adapters-http/src/route.ts decodes the request or answers 400 ERR_INPUT); the web client
 * decodes the answers with the same codecs; docs/api.md lists these calls (a test compares).
 */
export const API = {
  login: call({ method: 'POST', path: '/api/login', input: 'form', session: false, request: LoginForm, answer: SignInAnswer, answerKind: 'json', what: 'login form', summary: 'sign in; the token comes back in `x-accessptoken`' }),
  logout: call({ method: 'POST', path: '/api/logout', input: 'none', session: false, request: NoInput, answer: TextAnswer, answerKind: 'text', what: 'logout', summary: 'ends the session of the token sent; `OK`' }),
  notAuthorized: call({ method: 'GET', path: '/api/401', input: 'none', session: false, request: NoInput, answer: NoInput, answerKind: 'empty', what: '401', summary: 'always `401 NOT AUTHORIZED` (called after logout)' }),
  getMagic: call({ method: 'POST', path: '/api/getmagic', input: 'form', session: false, request: MagicLinkForm, answer: TextAnswer, answerKind: 'text', what: 'getmagic form', summary: 'mails a sign-in, forgot-password or invitation link; `OK_CHECK_EMAIL`' }),
  mustChangePassword: call({ method: 'POST', path: '/api/mustchangepassword', input: 'form', session: false, request: ForcedPasswordChangeForm, answer: SignInAnswer, answerKind: 'json', what: 'mustchangepassword form', summary: 'sets a new password with the old one or a link token; answers like login' }),
  changePassword: call({ method: 'POST', path: '/api/changepassword', input: 'form', session: true, request: PasswordChangeForm, answer: TextAnswer, answerKind: 'text', what: 'changepassword form', summary: 'one\'s own password, or another user\'s (administrators); `OK`' }),
  formPuzzle: call({ method: 'GET', path: '/api/formpuzzle', input: 'none', session: false, request: NoInput, answer: PuzzleAnswer, answerKind: 'json', what: 'formpuzzle', summary: 'the sign-up proof of work `{ salt, hash, cookie, iv, difficulty }`' }),
  signUp: call({ method: 'POST', path: '/api/signup', input: 'form', session: false, request: SignUpForm, answer: TextAnswer, answerKind: 'text', what: 'signup form', summary: 'creates an organization and its first user; `OK` with a token' }),
  trial: call({ method: 'POST', path: '/api/trial', input: 'form', session: false, request: TrialForm, answer: TextAnswer, answerKind: 'text', what: 'trial form', summary: 'a trial organization: `WAIT` while it is created, then `OK` with a token' }),
  appError: call({ method: 'POST', path: '/api/apperror', input: 'json', session: false, request: AppErrorReport, answer: TextAnswer, answerKind: 'text', what: 'apperror body', summary: 'a client error report; `OK`' }),
  sessionList: call({ method: 'GET', path: '/api/cache_debug', input: 'none', session: true, request: NoInput, answer: SessionList, answerKind: 'json', what: 'cache_debug', summary: 'the organization\'s sessions (administrators)' }),
  endSession: call({ method: 'GET', path: '/api/cache_debug_delete', input: 'query', session: true, request: EndSessionQuery, answer: TextAnswer, answerKind: 'text', what: 'cache_debug_delete query', summary: 'ends the session `?name=` (administrators); `OK`' }),
  streamToken: call({ method: 'GET', path: '/api/ssetoken', input: 'none', session: true, request: NoInput, answer: StreamTokenAnswer, answerKind: 'json', what: 'ssetoken', summary: 'a short-lived token `{ token, expires }` for the stream' }),
  stream: call({ method: 'GET', path: '/api/stream', input: 'query', session: false, request: StreamQuery, answer: NoInput, answerKind: 'event-stream', what: 'stream query', summary: 'Server-Sent Events of the changes the user may read (`?token=&since=`)' }),
  surveyPage: call({ method: 'GET', path: '/api/survey/{org}/{key}', input: 'none', session: false, request: NoInput, answer: SurveyPageAnswer, answerKind: 'json', what: 'survey', summary: 'the page of a public survey' }),
  surveySubmit: call({ method: 'POST', path: '/api/survey/{org}/{key}', input: 'json', session: false, request: SurveyAnswers, answer: TextAnswer, answerKind: 'text', what: 'survey answers', summary: 'answers a public survey; `SurveyCompleted`' }),
  surveySaveToTarget: call({ method: 'POST', path: '/api/surveytarget', input: 'json', session: true, request: SurveySaveToTargetRequest, answer: TextAnswer, answerKind: 'text', what: 'survey save to target', summary: "saves a survey record's answers to its target record (created and linked, or updated) and marks it Processed; answers the target's id" }),
  userContext: call({ method: 'GET', path: '/api/getusercontext', input: 'query', session: true, request: UserContextQuery, answer: UserContext, answerKind: 'json', what: 'getusercontext query', summary: 'the user context (metadata, permissions, apps; `?appId=`)' }),
  fetch: call({ method: 'POST', path: '/api/fetch', input: 'json', session: true, request: FetchRequestBody, answer: FetchAnswer, answerKind: 'json', what: 'fetch request', summary: 'a page of records of a query' }),
  update: call({ method: 'POST', path: '/api/update', input: 'json', session: true, request: WriteItemCodec, answer: TextAnswer, answerKind: 'text', what: 'update', summary: 'one create, update or delete; answers the id' }),
  executeMultiple: call({ method: 'POST', path: '/api/executemultiple', input: 'json', session: true, request: ExecuteMultipleRequest, answer: ExecuteMultipleAnswer, answerKind: 'json', what: 'executemultiple body', summary: 'a batch of writes, optionally atomic; one answer per item' }),
  accessToken: call({ method: 'GET', path: '/api/azure/accesstoken', input: 'none', session: true, request: NoInput, answer: AccessTokenAnswer, answerKind: 'json', what: 'accesstoken', summary: 'a Microsoft Graph token `{ access_token, expires_on }`' }),
  distance: call({ method: 'POST', path: '/api/distance', input: 'json', session: true, request: DistanceRequest, answer: DistanceAnswer, answerKind: 'json', what: 'distance body', summary: 'driving directions between lat,lon stops' }),
  geocode: call({ method: 'POST', path: '/api/geocode', input: 'json', session: true, request: GeocodeRequest, answer: GeocodeAnswer, answerKind: 'json', what: 'geocode body', summary: 'an address\'s coordinates (`{ q, city? }`) or the address at a point (`{ lat, lon }`); `{ match }`, null when none' }),
  whatsNext: call({ method: 'POST', path: '/api/whatsnext', input: 'json', session: true, request: WhatsNextRequest, answer: WhatsNextAnswer, answerKind: 'json', what: 'whatsnext request', summary: "a page of the caller's What's Next list (the follow-up rules of inu_nextrule; filters scheduled, owner, category, page)" }),
  metadataPlan: call({ method: 'POST', path: '/api/metadata/plan', input: 'json', session: true, request: MetadataChangeBody, answer: MetadataPlanAnswer, answerKind: 'json', what: 'metadata change', summary: 'the migration plan of a proposed metadata change `{ create?, update?, remove? }`: steps, DDL as `tessera schema diff` prints it, the steps that can lose data with their rows (issue 15; update on inu_metadata at organization level)' }),
  metadataApply: call({ method: 'POST', path: '/api/metadata/apply', input: 'json', session: true, request: MetadataApplyBody, answer: MetadataAppliedAnswer, answerKind: 'json', what: 'metadata apply', summary: 'applies a reviewed change in one transaction (`version` of the plan; `confirm` names each step that can lose data, else 409 ERR_DATA_LOSS); `{ version, steps }` (issue 15)' }),
  importUpload: call({ method: 'POST', path: '/api/import/upload', input: 'query', session: true, request: ImportUploadQuery, answer: ImportPreviewAnswer, answerKind: 'json', what: 'import upload query', summary: 'uploads a CSV or JSON file (the raw body); answers the checked preview' }),
  importCommit: call({ method: 'POST', path: '/api/import/commit', input: 'json', session: true, request: ImportCommitRequest, answer: ImportOutcomeAnswer, answerKind: 'json', what: 'import commit', summary: 'writes an uploaded file; answers the result' }),
  importTemplate: call({ method: 'GET', path: '/api/import/template', input: 'query', session: true, request: ImportTemplateQuery, answer: FileAnswer, answerKind: 'file', what: 'import template query', summary: 'the CSV template of an entity (`?entity=`)' }),
  export: call({ method: 'POST', path: '/api/export', input: 'json', session: true, request: ExportRequestBody, answer: FileAnswer, answerKind: 'file', what: 'export body', summary: 'a CSV, JSON or PDF file of a query' }),
  exportStart: call({ method: 'POST', path: '/api/export/start', input: 'json', session: true, request: ExportRequestBody, answer: ExportJobAnswer, answerKind: 'json', what: 'export body', summary: 'starts an export job (a large PDF); answers the job' }),
  exportJob: call({ method: 'GET', path: '/api/export/job', input: 'query', session: true, request: ExportJobQuery, answer: ExportJobAnswer, answerKind: 'json', what: 'export job query', summary: "an export job's progress (`?id=`)" }),
  exportDownload: call({ method: 'GET', path: '/api/export/download', input: 'query', session: true, request: ExportJobQuery, answer: FileAnswer, answerKind: 'file', what: 'export job query', summary: "a ready export job's file (`?id=`)" }),
  exportLink: call({ method: 'POST', path: '/api/export/link', input: 'json', session: true, request: ExportLinkRequest, answer: ExportLinkAnswer, answerKind: 'json', what: 'export link body', summary: 'a one-time download address `{ url, fileName, expires }` for an export or a ready job (`{ job }`)' }),
  exportFile: call({ method: 'GET', path: '/api/export/file', input: 'query', session: false, request: ExportFileQuery, answer: FileAnswer, answerKind: 'file', what: 'export file query', summary: 'the file of a download link (`?ticket=`, once; the ticket stands for the session)' }),
  document: call({ method: 'POST', path: '/api/document', input: 'json', session: true, request: DocumentRequestBody, answer: FileAnswer, answerKind: 'file', what: 'document request', summary: 'the PDF or Word document of a record from a report template (`{ entity, id, template | textTemplate | body, format? }`; issue 20)' }),
  blobUpload: call({ method: 'POST', path: '/api/blob', input: 'query', session: true, request: BlobUploadQuery, answer: BlobUploadAnswer, answerKind: 'json', what: 'blob upload query', summary: "stores a File or Image field's file (the raw body, `?entity=&field=&fileName=`; type sniffed from the bytes, size limited); answers `{ name, size, contentType, fileName }` (issue 18)" }),
  blobDownload: call({ method: 'GET', path: '/api/blob/{org}/{name}', input: 'query', session: false, request: BlobDownloadQuery, answer: FileAnswer, answerKind: 'file', what: 'blob query', summary: "a stored file; the query is the user context's `sas` (signed, short-lived), and its user must be able to read a record that references the blob (issue 18)" }),
  driveList: call({ method: 'POST', path: '/api/drive/list', input: 'json', session: true, request: DriveListRequest, answer: DriveListAnswer, answerKind: 'json', what: 'drive list', summary: "a CloudFiles panel's folder of a record (`{ entity, id, panel, path?, startsWith?, thumbnails? }`; read on the record); `{ folder, items, missing }` (issue 18)" }),
  driveFolder: call({ method: 'POST', path: '/api/drive/folder', input: 'json', session: true, request: DriveFolderRequest, answer: DriveFileAnswer, answerKind: 'json', what: 'drive folder', summary: 'creates a folder in the record\'s drive folder (conflict behaviour rename; update on the record) (issue 18)' }),
  driveRename: call({ method: 'POST', path: '/api/drive/rename', input: 'json', session: true, request: DriveRenameRequest, answer: DriveFileAnswer, answerKind: 'json', what: 'drive rename', summary: 'renames an item of the record\'s drive folder (`{ name, newName }`; update on the record) (issue 18)' }),
  providerSettings: call({ method: 'GET', path: '/api/admin/providers', input: 'none', session: true, request: NoInput, answer: ProviderSettingsAnswer, answerKind: 'json', what: 'providers', summary: "how the sign-in providers are set up, secrets hidden (administrators; issue 18)" }),
  driveDelete: call({ method: 'POST', path: '/api/drive/delete', input: 'json', session: true, request: DriveDeleteRequest, answer: TextAnswer, answerKind: 'text', what: 'drive delete', summary: 'deletes an item of the record\'s drive folder (update on the record); `OK` (issue 18)' }),
  driveUpload: call({ method: 'POST', path: '/api/drive/upload', input: 'query', session: true, request: DriveUploadQuery, answer: DriveFileAnswer, answerKind: 'json', what: 'drive upload query', summary: 'uploads the raw body into the record\'s drive folder (`?entity=&id=&panel=&fileName=[&path=][&replace=true]`; update on the record; an upload session beyond 4 MB) (issue 18)' }),
  cloudCalendar: call({ method: 'POST', path: '/api/cloudcalendar', input: 'json', session: true, request: CloudCalendarRequest, answer: CloudCalendarAnswer, answerKind: 'json', what: 'cloud calendar', summary: "the user's Outlook calendars and their events in `{ start, end }` (read-only in the calendar view) (issue 18)" }),
  providerSignIn: call({ method: 'GET', path: '/auth/{provider}/{organization}', input: 'query', session: false, request: ProviderStartQuery, answer: NoInput, answerKind: 'redirect', what: 'sign-in query', summary: 'starts a provider sign-in (302 to the provider)' }),
  providerSignUp: call({ method: 'GET', path: '/auth/{provider}/signup/{organization}', input: 'query', session: false, request: ProviderSignUpQuery, answer: NoInput, answerKind: 'redirect', what: 'sign-up query', summary: 'starts a provider sign-up (302 to the provider)' }),
  providerCallbackGet: call({ method: 'GET', path: '/auth/callback/{provider}', input: 'query', session: false, request: ProviderCallback, answer: NoInput, answerKind: 'redirect', what: 'callback', summary: 'the provider\'s answer; 303 to the client with the token in the fragment' }),
  providerCallbackPost: call({ method: 'POST', path: '/auth/callback/{provider}', input: 'form', session: false, request: ProviderCallback, answer: NoInput, answerKind: 'redirect', what: 'callback', summary: 'the same, as a form post (Apple)' }),
} as const;

export type ApiCalls = typeof API;

/** Every call, in the order of the table. */
export const API_CALLS: readonly CallContract[] = Object.values(API) as readonly CallContract[];
