import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { decode } from '../decode.js';
import { Guid } from './guid.js';
import { API, API_CALLS, ExecuteMultipleRequest, FetchRequestBody, LoginForm, WriteItemCodec, batchOf, formText } from './index.js';

describe('issue 12 point 4: one route table, the single list of calls', () => {
  it('each method and path appears once', () => {
    const keys = API_CALLS.map((c) => `${c.method} ${c.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('every call is under /api/ or /auth/, and the data calls need a session', () => {
    for (const c of API_CALLS) expect(c.path).toMatch(/^\/(api|auth)\//);
    for (const c of [API.fetch, API.update, API.executeMultiple, API.userContext, API.export, API.importCommit]) expect(c.session).toBe(true);
    for (const c of [API.login, API.surveyPage, API.surveySubmit, API.stream, API.appError]) expect(c.session).toBe(false);
  });
});

describe('API.md: bodies are decoded once, extra keys dropped (t.exact), not refused', () => {
  it('a write item keeps operation, name and object only', () => {
    const r = WriteItemCodec.decode({ operation: 'create', name: 'account', object: { name: 'A' }, extra: 1 });
    expect(isRight(r) && r.right).toEqual({ operation: 'create', name: 'account', object: { name: 'A' } });
  });

  it('a malformed body names the path that failed', () => {
    const r = decode(WriteItemCodec, { operation: 'explode', name: 'account', object: {} }, 'update');
    expect(isLeft(r) && r.left.message).toMatch(/^Invalid update: operation: expected operation, got "explode"/);
    const f = decode(FetchRequestBody, { entity: { name: 3 } }, 'fetch request');
    expect(isLeft(f) && f.left.message).toMatch(/^Invalid fetch request: entity\.name: expected string, got 3/);
  });

  it('executemultiple: a plain list, or { records, atomic }', () => {
    const item = { operation: 'delete', name: 'account', object: { id: 'x' } } as const;
    const plain = ExecuteMultipleRequest.decode([item]);
    const wrapped = ExecuteMultipleRequest.decode({ records: [item], atomic: true });
    expect(isRight(plain) && batchOf(plain.right)).toEqual({ items: [item], atomic: false });
    expect(isRight(wrapped) && batchOf(wrapped.right)).toEqual({ items: [item], atomic: true });
  });

  it('sign-in form fields never fail: absent, non-text or over-long read as \'\' (one failure for every wrong credential)', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (a, b) => {
        const r = LoginForm.decode({ organization: a, username: b });
        expect(isRight(r)).toBe(true);
      }),
    );
    expect(formText(3).decode('abcd')).toEqual({ _tag: 'Right', right: '' });
    expect(formText(3).decode('abc')).toEqual({ _tag: 'Right', right: 'abc' });
  });
});

describe('API.md "Records on the wire": id is a UUID string', () => {
  it('Guid accepts the dashed form in any case, and nothing else', () => {
    fc.assert(
      fc.property(fc.uuid(), (u) => {
        expect(Guid.is(u) && Guid.is(u.toUpperCase())).toBe(true);
      }),
    );
    for (const bad of ['', 'x', '00000000000000000000000000000000', '00000000-0000-0000-0000-00000000000g', 42]) expect(Guid.is(bad)).toBe(false);
  });
});
