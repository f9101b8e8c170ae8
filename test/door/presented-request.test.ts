import { describe, expect, it } from 'vitest';
import { presentedFromHeaders } from '../../src/door/presented-request';

const line = { method: 'post', path: '/api/lobbies/ABCDEF/vote-map', target: '/api/lobbies/ABCDEF/vote-map' };

describe('the presented request of HTTP headers', () => {
  it('reads the credentials and request line from the lower-cased headers', () => {
    const presented = presentedFromHeaders({ cookie: 'league_session=abc', authorization: 'Bearer k', 'x-request-id': 'req-1' }, line, '10.0.0.1');
    expect(presented).toMatchObject({ method: 'POST', path: line.path, target: line.target, cookie: 'league_session=abc', authorization: 'Bearer k', requestId: 'req-1' });
    expect(presented.clientAddress).toBe('10.0.0.1');
  });

  it('takes the first value of a repeated header', () => {
    expect(presentedFromHeaders({ origin: ['https://a.example', 'https://b.example'] }, line, '').origin).toBe('https://a.example');
  });

  it('derives a client address given as a function only when it is first read', () => {
    let reads = 0;
    const presented = presentedFromHeaders({}, line, () => `192.0.2.${++reads}`);
    expect(reads).toBe(0);
    expect(presented.clientAddress).toBe('192.0.2.1');
    expect(presented.clientAddress).toBe('192.0.2.1');
    expect(reads).toBe(1);
  });

  it('makes a fresh request id when the client sent none or one unfit for logs', () => {
    const mine = presentedFromHeaders({}, line, '').requestId;
    expect(mine).toMatch(/^[0-9a-f-]{36}$/);
    expect(presentedFromHeaders({ 'x-request-id': 'a b\nc' }, line, '').requestId).not.toBe('a b\nc');
  });
});
