import { ApiError, LoginRequiredError } from 'scratchlab';
import { describe, expect, it } from 'vitest';
import { type DisplayContext, kDisplay } from '../../repl/display/display.js';
import { createWriter, formatApiError } from '../../repl/display/writer.js';
import { project, user } from '../presentation/records.js';

const writer = createWriter({ color: false, size: () => ({ width: 100, height: 30 }) });

describe('the REPL writer', () => {
  it('prints an ApiError as one line with status, method, URL and reason, secrets redacted', () => {
    const error = new ApiError({
      status: 404,
      method: 'GET',
      url: 'https://api.scratch.mit.edu/projects/1?token=secret123',
      reason: 'NotFound',
    });
    expect(writer(error)).toBe(
      'ApiError 404 Not Found · GET https://api.scratch.mit.edu/projects/1?token=%5Bredacted%5D · NotFound',
    );
    expect(formatApiError(new ApiError({ status: 0, method: 'POST', url: 'https://x.test/' }), false)).toBe(
      'ApiError no answer · POST https://x.test/',
    );
    expect(formatApiError(error, true)).toContain('\x1b[');
  });

  it('prints a missing login as one line pointing at .login and the environment, never a password in code', () => {
    const text = writer(new LoginRequiredError('projects.save'));
    expect(text).toBe(
      'LoginRequiredError: projects.save needs a logged-in session: use .login, or start the REPL with SCRATCH_USERNAME and SCRATCH_PASSWORD set',
    );
    expect(text).not.toContain('password)');
  });

  it('redacts token-like keys of plain objects, at any depth, and leaves other values alone', () => {
    const answer = {
      user: { id: 1, username: 'alice', token: 'abc.def' },
      flags: { has_outstanding_email_confirmation: false },
    };
    const text = writer(answer);
    expect(text).toContain("token: '[redacted]'");
    expect(text).not.toContain('abc.def');
    expect(writer([{ 'X-Token': 'zzz', csrftoken: 'yyy', password: 'p' }])).not.toMatch(/zzz|yyy|'p'/);
    expect(answer.user.token).toBe('abc.def'); // the value itself is untouched
    expect(writer({ tokens: 3, token_count: 2 })).toBe('{ tokens: 3, token_count: 2 }');
  });

  it('renders objects with a Jupyter MIME bundle from the bundle', () => {
    const bundle = (data: Record<string, unknown>) => ({ [Symbol.for('Jupyter.display')]: () => data });
    expect(writer(bundle({ 'text/plain': 'plain', 'text/html': '<b>x</b>' }))).toBe('plain');
    expect(writer(bundle({ 'text/html': '<table><tr><td>a</td><td>b</td></tr></table>' }))).toBe('a  b');
    expect(writer(bundle({ 'image/png': 'iVBOR' }))).toBe(
      '[image/png (5 characters): shown in a notebook, not in a terminal]',
    );
  });

  it('prints records as tables fitted to the terminal', () => {
    const users = writer([user(1, 'alice'), user(2, 'bob')]).split('\n');
    expect(users[0]).toMatch(/^username\s+id\s+country/);
    expect(users[2]).toMatch(/^alice\s+1\s+Germany/);
    const projects = writer(Array.from({ length: 45 }, (_, i) => project(i + 1, `Game ${i}`)));
    expect(projects).toContain('… 5 more rows (45 total)');
    for (const line of projects.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('prints other values as node would', () => {
    expect(writer({ a: 1, b: 'x' })).toBe("{ a: 1, b: 'x' }");
    expect(writer([])).toBe('[]');
    expect(writer(undefined)).toBe('undefined');
    expect(writer(new Error('plain'))).toMatch(/^Error: plain\n\s+at /);
  });

  it('lets helpers draw themselves', () => {
    const drawn = { [kDisplay]: (context: DisplayContext) => `${context.width}x${context.height}` };
    expect(writer(drawn)).toBe('100x30');
  });
});
