import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { answerText, readHtmlAnswer } from '../../src/http/html-answer.js';
import type { HttpAnswer } from '../../src/http/http.js';
import { Session } from '../../src/index.js';
import { HtmlDepthError, UnreadablePageError } from '../../src/records/html.js';

// How an HTML answer is read: its text in its charset, and a page its reader refuses turned into
// the service's failure, scrubbed of the session's secrets.

const page = (text: string, contentType: string | null = 'text/html; charset=utf-8'): HttpAnswer => ({
  status: 200,
  headers: new Headers(contentType === null ? {} : { 'content-type': contentType }),
  bytes: new TextEncoder().encode(text),
  url: 'https://scratch.mit.edu/site-api/comments/user/someone/?page=1',
});

describe('answerText', () => {
  it('reads the charset among other parameters, unquoted, in any case', () => {
    const latin = (type: string) => ({
      ...page(''),
      headers: new Headers({ 'content-type': type }),
      bytes: new Uint8Array([0xe9]),
    });
    expect(answerText(latin('text/html;  boundary=x ;CHARSET=windows-1252'))).toBe('é');
    expect(answerText(latin('text/html; charset="iso-8859-1"'))).toBe('é');
    expect(answerText(latin('text/html; xcharset=iso-8859-1'))).toBe('\ufffd');
    expect(answerText(latin('text/html; charset='))).toBe('\ufffd');
    // A quoted value as WHATWG's MIME type parser reads it: up to its closing quote (what follows
    // is dropped), escapes undone, a ";" inside kept; "latin" names no encoding.
    expect(answerText(latin('text/html; charset="latin"1"'))).toBe('\ufffd');
    expect(answerText(latin('text/html; charset="iso-8859-1"junk'))).toBe('é');
    expect(answerText(latin('text/html; charset="iso-\\8859-1"'))).toBe('é');
    expect(answerText(latin('text/html; charset="iso-8859-1;x"'))).toBe('\ufffd');
    // A type that does not parse names no charset.
    expect(answerText(latin('html; charset=iso-8859-1'))).toBe('\ufffd');
    expect(answerText(page('<p>plain</p>', null))).toBe('<p>plain</p>');
  });

  it('reads a byte order mark’s encoding whatever the label says, as WHATWG’s decode does', () => {
    const bytes = (type: string, ...data: number[]) => ({
      ...page(''),
      headers: new Headers({ 'content-type': type }),
      bytes: new Uint8Array(data),
    });
    expect(answerText(bytes('text/html; charset=iso-8859-1', 0xef, 0xbb, 0xbf, 0xc3, 0xa9))).toBe('é');
    expect(answerText(bytes('text/html; charset=utf-8', 0xff, 0xfe, 0x68, 0, 0xe9, 0))).toBe('hé');
    expect(answerText(bytes('text/html; charset=utf-8', 0xfe, 0xff, 0, 0x68, 0, 0xe9))).toBe('hé');
    // Not a whole mark: the label decides.
    expect(answerText(bytes('text/html; charset=iso-8859-1', 0xef, 0xbb, 0xe9))).toBe('ï»é');
    expect(answerText(bytes('text/html; charset=iso-8859-1', 0xfe, 0xe9))).toBe('þé');
    expect(answerText(bytes('text/html; charset=iso-8859-1', 0xff, 0xe9))).toBe('ÿé');
    // Each byte of a mark counts: a mark's later bytes after another first byte, or its first
    // bytes around another, are text in the label's encoding.
    expect(answerText(bytes('text/html; charset=iso-8859-1', 0x41, 0xbb, 0xbf))).toBe('A»¿');
    expect(answerText(bytes('text/html; charset=iso-8859-1', 0xef, 0x41, 0xbf))).toBe('ïA¿');
    expect(answerText(bytes('text/html; charset=iso-8859-1', 0x41, 0xff))).toBe('Aÿ');
    expect(answerText(bytes('text/html; charset=iso-8859-1', 0x41, 0xfe))).toBe('Aþ');
  });
});

describe('readHtmlAnswer', () => {
  const session = async () => {
    const s = new Session({ hosts: { site: 'https://scratch.mit.edu' } });
    await s.jar.setCookie('scratchsessionsid=session-secret-77; Path=/', 'https://scratch.mit.edu/');
    return s;
  };

  it('answers what the reader reads from the text', async () => {
    expect(readHtmlAnswer(await session(), page('<p>é</p>'), 'GET', (html) => html.length)).toBe(8);
  });

  it('turns a page the reader refuses into an ApiError of the answer, scrubbed', async () => {
    const s = await session();
    for (const refusal of [new UnreadablePageError('comments (session-secret-77)'), new HtmlDepthError(64)]) {
      const error = (() => {
        try {
          readHtmlAnswer(s, { ...page('<p>x</p>'), status: 203 }, 'POST', () => {
            throw refusal;
          });
        } catch (thrown) {
          return thrown as ApiError;
        }
        throw new Error('expected a refusal');
      })();
      expect(error).toBeInstanceOf(ApiError);
      expect([error.status, error.method, error.url, error.cause]).toEqual([
        203,
        'POST',
        'https://scratch.mit.edu/site-api/comments/user/someone/?page=1',
        refusal,
      ]);
      expect(error.reason).toBe(
        refusal instanceof HtmlDepthError
          ? 'the HTML nests deeper than 64 levels; refused'
          : 'the page has no comments ([redacted])',
      );
    }
  });

  it('lets any other failure of the reader through as it is', async () => {
    const own = new TypeError('a bug in the reader');
    expect(() =>
      readHtmlAnswer(new Session(), page(''), 'GET', () => {
        throw own;
      }),
    ).toThrow(own);
  });
});
