import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { uwsResponseFixes } from '../../../rest/middleware/uws-response-fixes';

/** Just enough of uwebsockets-express's ServerResponse: its end/writeHead over a uWS response. */
function adapterResponse() {
  const written: Array<[string, string]> = [];
  const res = Object.assign(new EventEmitter(), {
    aborted: false,
    statusCode: 200,
    ended: 0,
    res: {
      cork: (cb: () => void) => cb(),
      writeStatus: (status: string) => written.push([':status', status]),
      writeHeader: (name: string, value: string) => written.push([name, value]),
    },
    end() {
      res.ended++;
      return res;
    },
    writeHead(code: number, headers: Record<string, unknown> = {}) {
      res.res.writeStatus(String(code));
      for (const [name, value] of Object.entries(headers)) {
        res.res.writeHeader(name, Array.isArray(value) ? value.join(', ') : String(value));
      }
    },
  });
  return { res, written };
}

function fixed() {
  const adapter = adapterResponse();
  uwsResponseFixes({} as Request, adapter.res as unknown as Response, () => undefined);
  return adapter;
}

describe('uwebsockets-express response fixes', () => {
  it('an answer to an aborted request is not written but still finishes, once', () => {
    const { res } = fixed();
    let finished = 0;
    res.on('finish', () => finished++);
    res.aborted = true;
    res.end();
    res.end();
    expect(res.ended).toBe(0);
    expect(finished).toBe(1);
  });

  it('an answer to a live request is written as usual', () => {
    const { res } = fixed();
    res.end();
    expect(res.ended).toBe(1);
  });

  it('two cookies are written as two Set-Cookie headers, not joined into one', () => {
    const { res, written } = fixed();
    res.writeHead(302, { location: '/', 'set-cookie': ['a=1; Path=/', 'b=2; Path=/'] });
    expect(written.filter(([name]) => name === 'set-cookie')).toEqual([
      ['set-cookie', 'a=1; Path=/'],
      ['set-cookie', 'b=2; Path=/'],
    ]);
    expect(written).toContainEqual(['location', '/']);
  });

  it('a single cookie passes through unchanged', () => {
    const { res, written } = fixed();
    res.writeHead(200, { 'set-cookie': ['a=1'] });
    expect(written).toContainEqual(['set-cookie', 'a=1']);
  });
});
