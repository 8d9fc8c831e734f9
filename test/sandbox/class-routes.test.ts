/**
 * The sandbox's routes of WIRE.md §12.2-12.5 on the wire: malformed requests get a 4xx JSON answer
 * that names the problem, change nothing, and the sandbox keeps serving.
 */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { Client, loggedIn } from './helpers.js';

const ctx = useSandbox();

describe('class, backpack, creation and profile routes refuse malformed requests', () => {
  it('as 4xx JSON, changing nothing', async () => {
    const { samples } = ctx.sandbox;
    const teacher = await loggedIn(ctx.sandbox, 3);
    const cases: [string, string, Parameters<Client['write']>[2], number, RegExp][] = [
      [
        'POST',
        '/classes/create_classroom/',
        { body: '{"title":', headers: { 'content-type': 'application/json' } },
        400,
        /malformed JSON/,
      ],
      ['POST', '/classes/create_classroom/', { json: ['a list'] }, 400, /JSON object/],
      ['POST', '/classes/create_classroom/', { json: { title: 5 } }, 400, /title must be a string/],
      ['POST', '/classes/create_classroom/', { json: { title: 'x'.repeat(101) } }, 400, /at most 100/],
      [
        'PUT',
        `/site-api/classrooms/all/${samples.classroom}/`,
        { json: { owner: 'me' } },
        400,
        /unknown field/,
      ],
      [
        'PUT',
        `/site-api/classrooms/all/${samples.classroom}/`,
        { json: { visibility: 'hidden' } },
        400,
        /visibility/,
      ],
      [
        'PUT',
        `/site-api/classrooms/all/${samples.classroom}/`,
        { json: { title: 'ok', status: [] } },
        400,
        /status/,
      ],
      [
        'POST',
        '/classes/create_classroom_gallery/',
        { json: { classroom_id: String(samples.classroom), classroom_token: 'wrong', title: 't' } },
        403,
        /token/,
      ],
      ['GET', `/site-api/classrooms/all/?page=abc`, {}, 400, /page must be/],
      ['GET', `/site-api/classrooms/all/?descsort=password`, {}, 400, /cannot sort/],
      ['GET', `/classes/${samples.classroom}/students/?page=0`, {}, 400, /page must be/],
      ['GET', `/classes/${samples.classroom}/students/?page=99`, {}, 404, /no such page/],
      ['GET', `/site-api/classrooms/activity/public/${samples.classroom}/?limit=0`, {}, 400, /limit/],
      ['POST', '/projects/?is_remix=2', { json: { targets: [] } }, 400, /is_remix/],
      [
        'POST',
        '/projects/',
        { body: 'not json', headers: { 'content-type': 'application/json' } },
        400,
        /malformed JSON/,
      ],
      ['POST', '/projects/', { json: { targets: 'no' } }, 400, /targets/],
      ['POST', '/projects/?is_remix=1&original_id=abc', { json: { targets: [] } }, 404, /^$/],
      ['PUT', '/site-api/users/all/demo_educator/', { json: { password: 'x' } }, 400, /unknown field/],
      ['DELETE', '/backpack/demo_educator/no-such-item', {}, 404, /^$/],
    ];
    for (const [method, path, options, status, message] of cases) {
      const answer = await teacher.write(method, path, options);
      expect([path, answer.status]).toEqual([path, status]);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect((answer.body as { message: string }).message).toMatch(message);
    }
    const api = await new Client(ctx.sandbox.url).get(`/api/classrooms/${samples.classroom}`);
    expect((api.body as { title: string }).title).toBe('Grade 6 Coding Club');
  });

  it('thumbnails: not an image, too large', async () => {
    const demo = await loggedIn(ctx.sandbox, 0);
    const id = ctx.sandbox.samples.unsharedProject;
    const bmp = await demo.write('POST', `/internalapi/project/thumbnail/${id}/set/`, { body: 'BM6.....' });
    expect([bmp.status, (bmp.body as { message: string }).message]).toEqual([
      400,
      'the thumbnail must be a PNG, a JPEG or a GIF',
    ]);
    const big = await demo.write('POST', `/internalapi/project/thumbnail/${id}/set/`, {
      body: new Uint8Array(600_000),
    });
    expect(big.status).toBe(413);
  });
});
