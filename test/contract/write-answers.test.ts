/**
 * The contract of the writes (WIRE.md §11.4-11.6): the real answers' shapes, recorded in
 * `write-wire-shapes.ts`, go through the types, the HTML reader of profile comments, the client
 * (from a loopback server answering them, not our sandbox) and the tables, and show the right
 * values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, CommentRejectedError, type Session } from '../../src/index.js';
import { renderTable, toTable } from '../../src/presentation/index.js';
import { HtmlDepthError } from '../../src/records/html.js';
import {
  parseProfileComment,
  parseProfileComments,
  profileCommentRefusal,
} from '../../src/records/profile-comments.js';
import { caught } from '../support/caught.js';
import { type FakePlatform, startFakePlatform } from '../support/fake-platform.js';
import * as wire from './write-wire-shapes.js';

describe('types say what the wire says', () => {
  it('makes readers of the thin and string-typed fields check them', () => {
    // @ts-expect-error: a posted comment's author has no username
    const name: string = wire.postedComment.author.username;
    // @ts-expect-error: love answers carry the project id as a string
    const id: number = wire.love.projectId;
    // @ts-expect-error: a refusal's status is optional
    const until: number = wire.rejectedIp.status?.mute_status?.muteExpiresAt;
    expect([name, id, until]).toEqual([undefined, '1076204740', undefined]);
  });
});

describe('profile comment HTML', () => {
  it('reads a page into threads: ids, names, decoded text, dates, avatars with a scheme', () => {
    const [thread, ...rest] = parseProfileComments(wire.profileCommentsHtml);
    expect(rest).toEqual([]);
    expect(thread).toEqual({
      id: 301,
      parent_id: null,
      content: 'Thanks for the follow & the "fan art"!',
      datetime_created: '2025-05-27T05:15:56Z',
      author: {
        id: 1_882_674,
        username: 'griffpatch',
        image: 'https://cdn2.scratch.mit.edu/get_image/user/1882674_60x60.png',
      },
      reply_count: 1,
      replies: [
        {
          id: 302,
          parent_id: 301,
          content: "@griffpatch you're welcome",
          datetime_created: '2025-05-28T10:00:00Z',
          author: {
            id: 5_000_001,
            username: 'nocountry',
            image: 'https://cdn2.scratch.mit.edu/get_image/user/5000001_60x60.png',
          },
          reply_count: 0,
        },
      ],
    });
    expect(parseProfileComment(wire.profileCommentsHtml)!.id).toBe(301);
  });

  it('finds a refusal in the error data, and nothing in a page without it', () => {
    expect(profileCommentRefusal(wire.profileRefusalHtml)).toEqual({ error: 'isFlood', mute_status: {} });
    expect(profileCommentRefusal(wire.profileCommentsHtml)).toBeUndefined();
    expect(profileCommentRefusal('<script id="error-data">not json</script>')).toBeUndefined();
    expect(parseProfileComments('')).toEqual([]);
    expect(parseProfileComments('<div class="comment" data-comment-id="x"></div><p>broken')).toEqual([]);
  });

  it('a page nested past 1,000 levels is refused with a clear error, not a stack overflow', () => {
    const nested = (depth: number) =>
      `${'<div>'.repeat(depth)}${wire.profileCommentsHtml}${'</div>'.repeat(depth)}`;
    expect(parseProfileComments(nested(900)).map((c) => c.id)).toEqual([301]);
    expect(() => parseProfileComments(nested(50_000))).toThrow(HtmlDepthError);
    const deepText = `<div class="comment" data-comment-id="5"><a data-comment-user="x"></a><div class="content">${'<b>'.repeat(50_000)}</div></div>`;
    expect(() => parseProfileComment(deepText)).toThrow(/nests deeper than 1000 levels/);
  });
});

describe('through the real client', () => {
  let platform: FakePlatform;
  let session: Session;
  beforeAll(async () => {
    platform = await startFakePlatform((req) => {
      const path = (req.url ?? '').split('?')[0];
      if (path === '/proxy/comments/project/1') return { body: wire.postedComment };
      if (path === '/proxy/comments/project/2') return { body: wire.rejectedBad };
      if (path === '/proxy/comments/studio/3') return { body: wire.rejectedIp };
      if (path === '/proxy/comments/studio/4') return { body: wire.rejectedUnknown };
      if (path === '/proxy/comments/studio/5') return { status: 403, body: wire.mutedForbidden };
      if (path === '/proxy/projects/1076204740/loves/user/bot') return { body: wire.love };
      if (path === '/projects/1076204740/favorites/user/bot')
        return { body: { projectId: '1076204740', userFavorite: true } };
      if (path === '/studios/9/users/bot') return { body: wire.role };
      if (path === '/studios/9/project/1076204740') return { body: wire.studioProjectAdded };
      if (path === '/site-api/users/curators-in/9/invite_curator/') return { body: wire.inviteRefused };
      if (path === '/site-api/galleries/all/9/') return { body: wire.titleRefused };
      if (path === '/site-api/comments/user/griffpatch/add/') {
        return { body: wire.profileCommentsHtml, contentType: 'text/html' };
      }
      if (path === '/site-api/comments/user/nocountry/add/') {
        return { body: wire.profileRefusalHtml, contentType: 'text/html' };
      }
      if (path === '/site-api/comments/user/deep/' || path === '/messages/ajax/user-activity/') {
        return { body: '<span>'.repeat(5_000), contentType: 'text/html' };
      }
      if (path === '/site-api/comments/user/griffpatch/') {
        return { body: wire.profileCommentsHtml, contentType: 'text/html' };
      }
      return { status: 404, body: { code: 'NotFound', message: '' } };
    });
    session = await platform.login();
  });
  afterAll(() => platform.close());

  it('a posted comment comes back as sent; its table shows it without a username', async () => {
    const posted = await session.projects.postComment(1, 'Nice game!');
    expect(posted).toEqual(wire.postedComment);
    const text = renderTable(toTable([posted]), { width: 160 });
    expect(text).toContain('Nice game!');
    expect(text).not.toContain('undefined');
  });

  it('refusals become CommentRejectedErrors with their code, mute status and appeal id', async () => {
    const bad = await caught<CommentRejectedError>(session.projects.postComment(2, 'x'));
    expect(bad).toBeInstanceOf(CommentRejectedError);
    expect(bad).toMatchObject({ code: 'isBad', status: 200, muted: true });
    expect(bad.muteStatus).toEqual(wire.rejectedBad.status!.mute_status);
    expect(bad.mutedUntil).toEqual(new Date(4_102_444_800_000));
    const ip = await caught<CommentRejectedError>(session.studios.postComment(3, 'x'));
    expect(ip).toMatchObject({ code: 'isIPMuted', appealId: '12345', muted: false, muteStatus: undefined });
    const unknown = await caught<CommentRejectedError>(session.studios.postComment(4, 'x'));
    expect(unknown.code).toBe('isSomethingNew');
    expect(unknown.message).toMatch(/comment rejected \(isSomethingNew\)$/);
    const forbidden = await caught<CommentRejectedError>(session.studios.postComment(5, 'x'));
    expect(forbidden).toBeInstanceOf(CommentRejectedError);
    expect(forbidden).toMatchObject({ code: 'isMuted', status: 403, muted: true });
    expect(forbidden.muteStatus).toEqual(wire.mutedForbidden.mute_status);
    const profile = await caught<CommentRejectedError>(session.users.postComment('nocountry', 'x'));
    expect(profile).toMatchObject({ code: 'isFlood', muteStatus: {}, muted: false });
  });

  it('social and studio answers keep their wire types', async () => {
    expect(await session.projects.love(1_076_204_740)).toEqual(wire.love);
    expect(await session.projects.isFavorited(1_076_204_740)).toBe(true);
    expect(await session.studios.myRole(9)).toEqual(wire.role);
    expect(await session.studios.addProject(9, 1_076_204_740)).toEqual(wire.studioProjectAdded);
  });

  it("refusals that come as 200 still throw, with the service's words", async () => {
    const invite = await caught(session.studios.inviteCurator(9, 'griffpatch'));
    expect(invite).toBeInstanceOf(ApiError);
    expect(invite.reason).toBe('griffpatch is already a curator of this studio');
    const title = await caught(session.studios.setTitle(9, 'x'));
    expect(title).toMatchObject({ status: 200, reason: 'inappropriate-generic' });
  });

  it('profile comments from the HTML answers, posted and listed', async () => {
    const posted = await session.users.postComment('griffpatch', 'hi');
    expect(posted).toMatchObject({ id: 301, author: { username: 'griffpatch', id: 1_882_674 } });
    // The fake platform is plain http: a protocol-relative avatar takes the answer's scheme.
    expect(posted.author.image).toBe('http://cdn2.scratch.mit.edu/get_image/user/1882674_60x60.png');
    const [thread] = await session.users.comments('griffpatch');
    expect(thread!.replies!.map((r) => r.id)).toEqual([302]);
    const deep = await caught(session.users.comments('deep'));
    expect(deep).toBeInstanceOf(ApiError);
    expect(deep).toMatchObject({ status: 200, reason: 'the HTML nests deeper than 1000 levels; refused' });
    // The profile's activity, the other HTML answer, is refused the same way.
    const activity = await caught(session.users.activity('deep'));
    expect(activity).toMatchObject({
      status: 200,
      reason: 'the HTML nests deeper than 1000 levels; refused',
    });
    const table = toTable([thread]);
    expect(table.rows[0]!.slice(0, 4)).toEqual([
      '301',
      'griffpatch',
      'Thanks for the follow & the "fan art"!',
      '1',
    ]);
  });
});
