import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ApplicationGraphTokens,
  ClientCredentialsGraphTokenSource,
  DEFAULT_GRAPH_REQUEST_OPTIONS,
  GraphCalendarGateway,
  GraphDriveGateway,
  GraphRequests,
  OnBehalfOfGraphTokens,
  UPLOAD_CHUNK_BYTES,
} from '@tessera/adapters-graph';
import { cloudCalendarFeed, DRIVE_MAX_PAGES, NO_OUTLOOK_CALENDARS, type Clock, type GraphUser } from '@tessera/core/internal';
import { startFakeGraph, type FakeGraph } from '../fakes/fake-graph.js';

/**
 * The Graph gateways against the loopback Graph (issue 18; spec 002 section 7 "Drive and blob",
 * spec 001 "Cloud token and calendar", section 8 'Request [{path}] failed: {text}', section 9
 * "drive paging max 100 pages; calendar view page size 500").
 */
const clock: Clock = { now: () => new Date() };
const ann: GraphUser = { key: 'org\u0000u1', email: 'ann@contoso.test' };

describe('GraphDriveGateway and GraphCalendarGateway against the loopback Graph', () => {
  let g: FakeGraph;
  let waits: number[];
  let drive: GraphDriveGateway;
  let calendar: GraphCalendarGateway;
  let appTokens: ClientCredentialsGraphTokenSource;

  const requests = (re: RegExp) => g.requests.filter((r) => re.test(r.path));

  beforeAll(async () => {
    g = await startFakeGraph();
    appTokens = new ClientCredentialsGraphTokenSource({ tokenUrl: g.tokenUrl, clientId: g.clientId, clientSecret: g.clientSecret, scope: 'https://graph.microsoft.com/.default' }, clock);
    const graph = new GraphRequests(g.graphUrl, new ApplicationGraphTokens(appTokens), {
      ...DEFAULT_GRAPH_REQUEST_OPTIONS,
      maxRetryAfterMs: 10_000,
      sleep: async (ms) => void waits.push(ms),
    });
    drive = new GraphDriveGateway(graph, null);
    calendar = new GraphCalendarGateway(graph);
  });
  afterAll(() => g.close());
  afterEach(() => {
    g.pageSize = 200;
    g.issueExpired = false;
    g.calendarFailure = null;
    g.requests.length = 0;
    waits = [];
  });

  it('lists a folder with $select, and follows @odata.nextLink through 3 pages', async () => {
    waits = [];
    for (let i = 0; i < 6; i++) g.seed(['Accounts', 'Contoso', `doc-${i}.txt`], `text ${i}`);
    g.pageSize = 2;
    const r = await drive.children(ann, ['Accounts', 'Contoso'], {});
    expect(isRight(r) && r.right.map((f) => f.name)).toEqual(['doc-0.txt', 'doc-1.txt', 'doc-2.txt', 'doc-3.txt', 'doc-4.txt', 'doc-5.txt']);
    const calls = requests(/children$/);
    expect(calls).toHaveLength(3);
    expect(calls[0].path).toBe('/v1.0/users/ann@contoso.test/drive/root:/Accounts/Contoso:/children');
    expect(calls[0].query.get('$select')).toContain('@microsoft.graph.downloadUrl');
    const first = isRight(r) ? r.right[0] : null;
    expect(first).toMatchObject({ folder: false, size: 6, mimeType: 'text/plain', createdBy: 'Fake User' });
    expect(first?.downloadUrl).toMatch(/\/download\//);
  });

  it('drive paging stops at 100 pages (spec 001 section 9)', async () => {
    for (let i = 0; i < DRIVE_MAX_PAGES + 5; i++) g.seed(['Many', `f-${String(i).padStart(3, '0')}.txt`], 'x');
    g.pageSize = 1;
    const r = await drive.children(ann, ['Many'], {});
    expect(isRight(r) && r.right.length).toBe(DRIVE_MAX_PAGES);
    expect(requests(/children$/)).toHaveLength(DRIVE_MAX_PAGES);
  });

  it('$filter startswith(name) (the panel\'s fileFilter) and $expand=thumbnails', async () => {
    g.seed(['WorkOrders', 'WO-1', 'IMG_1.jpg'], 'jpeg');
    g.seed(['WorkOrders', 'WO-1', "IMG_it's.png"], 'png');
    g.seed(['WorkOrders', 'WO-1', 'report.pdf'], 'pdf');
    const r = await drive.children(ann, ['WorkOrders', 'WO-1'], { startsWith: 'IMG', thumbnails: true });
    expect(isRight(r) && r.right.map((f) => [f.name, f.thumbnail !== null])).toEqual([
      ['IMG_1.jpg', true],
      ["IMG_it's.png", true],
    ]);
    expect(requests(/children$/)[0].query.get('$filter')).toBe("startswith(name,'IMG')");
    expect(requests(/children$/)[0].query.get('$expand')).toBe('thumbnails');
  });

  it('a missing folder is NOT_FOUND with the spec\'s text Request [{path}] failed: {text}', async () => {
    const r = await drive.children(ann, ['Accounts', 'Nobody'], {});
    expect(isLeft(r) && r.left).toEqual({ kind: 'NOT_FOUND', message: 'Request [/users/ann@contoso.test/drive/root:/Accounts/Nobody:/children] failed: The resource could not be found.' });
  });

  it('429 with Retry-After is waited out, then the call succeeds', async () => {
    g.seed(['Throttled', 'a.txt'], 'a');
    g.throttle(2, 2);
    const r = await drive.children(ann, ['Throttled'], {});
    expect(isRight(r) && r.right.map((f) => f.name)).toEqual(['a.txt']);
    expect(waits).toEqual([2000, 2000]);
  });

  it('a Retry-After beyond the bound fails at once instead of hanging the request', async () => {
    g.throttle(1, 120);
    const r = await drive.children(ann, ['Throttled'], {});
    expect(isLeft(r) && r.left.message).toBe('Request [/users/ann@contoso.test/drive/root:/Throttled:/children] failed: too many requests; retry after 120 s');
    expect(waits).toEqual([]);
  });

  it('401 (token expired) renews the token once and tries again', async () => {
    await drive.children(ann, ['Throttled'], {});
    const before = g.tokenRequests.length;
    g.expireTokens();
    const r = await drive.children(ann, ['Throttled'], {});
    expect(isRight(r)).toBe(true);
    expect(g.tokenRequests.length).toBe(before + 1);
    expect(requests(/children$/).map((x) => x.authorization)).toHaveLength(3);
  });

  it('a second 401 after the refresh fails with Graph\'s message', async () => {
    g.expireTokens();
    g.issueExpired = true;
    const r = await drive.children(ann, ['Throttled'], {});
    expect(isLeft(r) && r.left.message).toBe('Request [/users/ann@contoso.test/drive/root:/Throttled:/children] failed: Access token has expired or is not yet valid.');
    g.issueExpired = false;
    g.expireTokens();
  });

  it('creates a folder with conflict behaviour rename: a taken name gets a number', async () => {
    g.seed(['Accounts', 'Fabrikam', 'Offers']);
    const r = await drive.createFolder(ann, ['Accounts', 'Fabrikam'], 'Offers', 'rename');
    expect(isRight(r) && [r.right.name, r.right.folder]).toEqual(['Offers 1', true]);
    const posted = g.requests.find((x) => x.method === 'POST');
    expect(posted?.path).toBe('/v1.0/users/ann@contoso.test/drive/root:/Accounts/Fabrikam:/children');
  });

  it('renames with PATCH (a taken name is CONFLICT) and deletes with DELETE', async () => {
    g.seed(['Accounts', 'Fabrikam', 'old.txt'], 'x');
    g.seed(['Accounts', 'Fabrikam', 'taken.txt'], 'y');
    const clash = await drive.rename(ann, ['Accounts', 'Fabrikam', 'old.txt'], 'taken.txt');
    expect(isLeft(clash) && clash.left.kind).toBe('CONFLICT');
    const r = await drive.rename(ann, ['Accounts', 'Fabrikam', 'old.txt'], 'new.txt');
    expect(isRight(r) && r.right.name).toBe('new.txt');
    expect(isRight(await drive.remove(ann, ['Accounts', 'Fabrikam', 'new.txt']))).toBe(true);
    expect(g.find(['Accounts', 'Fabrikam', 'new.txt'])).toBeUndefined();
    expect(g.requests.map((x) => x.method)).toEqual(['PATCH', 'PATCH', 'DELETE']);
  });

  it('uploads a small file with PUT {path}:/content', async () => {
    const bytes = new TextEncoder().encode('hello drive');
    const r = await drive.upload(ann, ['Accounts', 'Up'], 'hello.txt', bytes, 'rename');
    expect(isRight(r) && [r.right.name, r.right.size]).toEqual(['hello.txt', 11]);
    const put = g.requests.find((x) => x.method === 'PUT');
    expect(put?.path).toBe('/v1.0/users/ann@contoso.test/drive/root:/Accounts/Up/hello.txt:/content');
    expect(put?.query.get('@microsoft.graph.conflictBehavior')).toBe('rename');
  });

  it('a 5 MB file goes through an upload session in 320 KiB-multiple ranges without the token', async () => {
    const bytes = new Uint8Array(5 * 1024 * 1024).map((_, i) => i % 251);
    const r = await drive.upload(ann, ['Accounts', 'Up'], 'big.bin', bytes, 'rename');
    expect(isRight(r) && r.right.size).toBe(bytes.length);
    expect(Buffer.compare(g.find(['Accounts', 'Up', 'big.bin'])!.content, Buffer.from(bytes))).toBe(0);
    const ranges = g.requests.filter((x) => x.path.startsWith('/upload/'));
    expect(ranges.map((x) => x.contentRange)).toEqual([`bytes 0-${UPLOAD_CHUNK_BYTES - 1}/${bytes.length}`, `bytes ${UPLOAD_CHUNK_BYTES}-${bytes.length - 1}/${bytes.length}`]);
    expect(ranges.every((x) => x.authorization === null)).toBe(true);
    expect(g.requests.some((x) => x.path.endsWith(':/createUploadSession'))).toBe(true);
  });

  it('reads calendars and each calendarView with startDateTime, endDateTime and $top=500, in UTC, paging beyond 500', async () => {
    g.calendars = [
      { id: 'cal-1', name: 'Calendar', hexColor: '#3366ff', events: Array.from({ length: 520 }, (_, i) => ({ id: `e${i}`, subject: `Meeting ${i}`, start: `2026-11-${String(10 + (i % 10)).padStart(2, '0')}T09:${String(i % 60).padStart(2, '0')}:00`, end: `2026-11-${String(10 + (i % 10)).padStart(2, '0')}T10:00:00` })) },
      { id: 'cal-2', name: 'Holidays', events: [{ id: 'h1', subject: 'Day off', start: '2026-11-20T00:00:00', end: '2026-11-21T00:00:00' }, { id: 'h2', subject: 'Cancelled', start: '2026-11-22T00:00:00', end: '2026-11-23T00:00:00', isCancelled: true }] },
    ];
    const r = await cloudCalendarFeed(calendar, ann, '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z');
    expect(isRight(r) && r.right.calendars.map((c) => [c.id, c.name, c.color])).toEqual([
      ['cal-1', 'Calendar', '#3366ff'],
      ['cal-2', 'Holidays', null],
    ]);
    expect(isRight(r) && r.right.events.length).toBe(521);
    const dayOff = isRight(r) ? r.right.events.find((e) => e.id === 'h1') : undefined;
    expect(dayOff).toMatchObject({ start: '2026-11-20T00:00:00.000Z', end: '2026-11-21T00:00:00.000Z', name: 'Day off', calendarId: 'cal-2' });
    const views = requests(/calendarView$/);
    expect(views[0].query.get('$top')).toBe('500');
    expect(views[0].query.get('startDateTime')).toBe('2026-11-01T00:00:00.000Z');
    expect(views.filter((v) => v.path.includes('cal-1'))).toHaveLength(2);
  });

  it("a failing calendar list is 'Unable to find user calendars: ...', an empty one 'User has no outlook calendars'", async () => {
    g.calendarFailure = { status: 403, code: 'ErrorAccessDenied', message: 'Access is denied. Check credentials and try again.' };
    const failed = await cloudCalendarFeed(calendar, ann, '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z');
    expect(isLeft(failed) && failed.left.message).toBe('Unable to find user calendars: Request [/users/ann@contoso.test/calendars] failed: Access is denied. Check credentials and try again.');
    g.calendarFailure = null;
    g.calendars = [];
    const none = await cloudCalendarFeed(calendar, ann, '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z');
    expect(isLeft(none) && none.left).toEqual({ kind: 'NOT_FOUND', message: NO_OUTLOOK_CALENDARS });
  });

  it('on-behalf-of: the user\'s assertion is exchanged (jwt-bearer, requested_token_use on_behalf_of) and /me is called; the token is kept per user', async () => {
    g.assertions.set('ann-assertion', ann.email);
    g.calendars = [{ id: 'c', name: 'Calendar', events: [] }];
    const obo = new OnBehalfOfGraphTokens({ tokenUrl: g.tokenUrl, clientId: g.clientId, clientSecret: g.clientSecret, scope: 'https://graph.microsoft.com/.default' }, (u) => (u.key === ann.key ? 'ann-assertion' : null), clock);
    const me = new GraphCalendarGateway(new GraphRequests(g.graphUrl, obo));
    const before = g.tokenRequests.length;
    expect(isRight(await me.calendars(ann))).toBe(true);
    expect(isRight(await me.calendars(ann))).toBe(true);
    const sent = g.tokenRequests.slice(before);
    expect(sent).toHaveLength(1);
    expect([sent[0].get('grant_type'), sent[0].get('assertion'), sent[0].get('requested_token_use')]).toEqual(['urn:ietf:params:oauth:grant-type:jwt-bearer', 'ann-assertion', 'on_behalf_of']);
    expect(requests(/calendars$/).every((x) => x.path === '/v1.0/me/calendars')).toBe(true);
    const stranger = await me.calendars({ key: 'org\u0000u2', email: 'bob@contoso.test' });
    expect(isLeft(stranger) && stranger.left.message).toMatch(/^Request \[\/me\/calendars\] failed: no Microsoft sign-in/);
  });
});
