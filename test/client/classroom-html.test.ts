/**
 * Hostile and odd classroom pages (WIRE.md §12.2), served over loopback by a small server of the
 * test's own and read through the real client: markup the real pages may vary in (case, spacing,
 * entities, attributes in any order) still reads; links to elsewhere are not students; a page
 * that lacks what the reader needs, or nests absurdly deep, is an ApiError naming it, never a
 * crash or a silent empty list.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, Session } from '../../src/index.js';
import { caught } from '../support/caught.js';

const pages = new Map<string, string>();
let server: Server;
let session: Session;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const page = (req.url ?? '').includes('page=2') ? undefined : pages.get(path);
    res.writeHead(page === undefined ? 404 : 200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(page ?? '<h1>Not found</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The API host refuses everything, so `get` falls back to the class page.
  session = new Session({ hosts: { site: url, api: `${url}/api` }, rateLimit: Infinity, retries: 0 });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('odd classroom pages', () => {
  it('students: upper-case tags, odd spacing, entities, encoded names; other links ignored', async () => {
    pages.set(
      '/classes/1/students/',
      `<UL><LI CLASS="user big"><A HREF = '/users/Ann_1/'>Ann_1</A><a href="/users/Ann_1/">again</a></LI>
       <li class="user"><span class="title"><a title="x" href="/users/b%2Dc/">b-c</a></span></li>
       <li class="user"><a href="/projects/5/">a project</a><a href="javascript:alert(1)">x</a>
         <a href="/users/x/projects/">not a user</a><a href="https://scratch.mit.edu/users/Dee/">Dee</a></li>
       <li class="other"><a href="/users/NotAStudent/">no</a></li></UL>`,
    );
    const students = await session.classrooms.students(1);
    expect(students.map((s) => s.username)).toEqual(['Ann_1', 'b-c', 'Dee']);
  });

  it('studios: only span.title links to a studio id', async () => {
    pages.set(
      '/classes/2/studios/',
      `<span class="title">
          <a href="/studios/12/">Art &amp; Music</a></span>
       <span class="title"><a href="/studios/abc/">bad id</a></span>
       <span class="title">no link</span><a href="/studios/99/">outside a title</a>`,
    );
    expect(await session.classrooms.studios(2)).toEqual([{ id: 12, title: 'Art & Music' }]);
  });

  it('a closed class page reads; one without its parts is an ApiError naming them', async () => {
    pages.set(
      '/classes/3/',
      `<html><head><title>Room &lt;3&gt; on Scratch</title><script>var x = 1;</script>
       <script>Scratch.INIT_DATA.PROFILE = {
  model: {
    id: 'teach_er',
    userId: 5,
  }}</script></head><body><p class="overview">About</p><p class="overview">Working</p>
       <h4>Students (1,204)</h4><h4>Class Studios (3)</h4></body></html>`,
    );
    expect(await session.classrooms.get(3)).toMatchObject({
      title: 'Room <3>',
      description: 'About',
      status: 'Working',
      closed: true,
      educator: { username: 'teach_er' },
      student_count: 1204,
      studio_count: 3,
    });
    pages.set('/classes/4/', '<title>X on Scratch</title><p class="overview">only one</p>');
    const missing = await caught(session.classrooms.get(4));
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing.reason).toBe('the page has no p.overview about and status (a class page)');
    pages.set(
      '/classes/5/',
      `<title>X</title><p class="overview">a</p><p class="overview">b</p>
       <script>Scratch.INIT_DATA.PROFILE = { model: { id: '</script><b>', userId: 1 } }</script>`,
    );
    expect((await caught(session.classrooms.get(5))).reason).toMatch(/no educator/);
  });

  it('a page nested absurdly deep is refused as an ApiError', async () => {
    pages.set(
      '/classes/6/students/',
      `${'<div>'.repeat(5_000)}<li class="user"><a href="/users/x/">x</a></li>`,
    );
    const error = await caught(session.classrooms.students(6));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.reason).toMatch(/nests deeper than 1000 levels/);
  });

  it('an empty first page is an empty list; a missing class is a 404', async () => {
    pages.set('/classes/7/students/', '<ul class="media-grid"></ul>');
    expect(await session.classrooms.students(7)).toHaveLength(0);
    expect((await caught(session.classrooms.students(8))).status).toBe(404);
  });
});
