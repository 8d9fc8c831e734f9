/**
 * Shapes of the real service's answers to writes, written from WIRE.md §11.4-11.6 (not from our
 * sandbox): a posted comment without `author.username`, a refusal with a mute status in unix
 * seconds, love and favorite answers with **string** project ids, curator answers, studio edit
 * refusals, and the HTML of profile comments. Each is declared with the record type it must be,
 * so `tsc` checks that the types accept what the wire sends.
 */
import type {
  CommentRejection,
  CuratorAnswer,
  FavoriteAnswer,
  LoveAnswer,
  MuteStatus,
  PostedComment,
  StudioEditAnswer,
  StudioProjectAnswer,
  StudioRole,
} from '../../src/records/write-records.js';

/** `POST {api}/proxy/comments/project/<pid>` answered: the comment object, no `author.username`. */
export const postedComment: PostedComment = {
  id: 471_234_567,
  parent_id: null,
  commentee_id: null,
  content: 'Nice game!',
  datetime_created: '2025-05-27T05:15:56.000Z',
  datetime_modified: '2025-05-27T05:15:56.000Z',
  visibility: 'visible',
  author: {
    id: 5_000_001,
    scratchteam: false,
    image: 'https://cdn2.scratch.mit.edu/get_image/user/5000001_60x60.png',
  },
  reply_count: 0,
};

/** A refusal that mutes: HTTP 200, `rejected`, and the mute status in unix seconds. */
export const rejectedBad: CommentRejection = {
  rejected: 'isBad',
  status: {
    mute_status: {
      offenses: [{ createdAt: 1_748_322_956, expiresAt: 1_748_323_256, messageType: 'general' }],
      showWarning: true,
      muteExpiresAt: 4_102_444_800, // 2100: still muted whenever the test runs
      currentMessageType: 'general',
    },
  },
};

/** A muted account refused outside `rejected`: 403 with the mute status (WIRE.md §11, S2). */
export const mutedForbidden: { mute_status: MuteStatus } = {
  mute_status: {
    offenses: [{ createdAt: 1_748_322_956, expiresAt: 4_102_444_800, messageType: 'general' }],
    showWarning: true,
    muteExpiresAt: 4_102_444_800,
    currentMessageType: 'general',
  },
};

/** An IP mute with its appeal id. */
export const rejectedIp: CommentRejection = { rejected: 'isIPMuted', appealId: '12345' };

/** A code this client does not know yet: still a refusal. */
export const rejectedUnknown: CommentRejection = { rejected: 'isSomethingNew' };

export const love: LoveAnswer = { projectId: '1076204740', userLove: true, statusChanged: true };
export const unfavorite: FavoriteAnswer = {
  projectId: '1076204740',
  userFavorite: false,
  statusChanged: false,
};
export const role: StudioRole = { manager: false, curator: true, invited: false, following: true };
export const studioProjectAdded: StudioProjectAnswer = { projectId: '1076204740', actorId: 5_000_001 };
export const inviteRefused: CuratorAnswer = {
  status: 'error',
  message: 'griffpatch is already a curator of this studio',
};
export const titleRefused: StudioEditAnswer = { errors: ['inappropriate-generic'] };

/**
 * A page of profile comments as the site serves it (C S2 user.py, S3 comment.py): a thread with a
 * reply, a link in the text, entities, no-break spaces in the time, and protocol-relative avatars.
 */
export const profileCommentsHtml = `
<ul class="comments">
<li class="top-level-reply">
  <div id="comments-301" class="comment " data-comment-id="301">
    <div class="actions-wrap"><span data-comment-id="301" class="actions report">Report</span></div>
    <a href="/users/griffpatch" id="comment-user" data-comment-user="griffpatch"><img class="avatar" src="//cdn2.scratch.mit.edu/get_image/user/1882674_60x60.png" width="45" height="45"></a>
    <div class="info">
      <div class="name"><a href="/users/griffpatch">griffpatch</a></div>
      <div class="content">
        Thanks for the follow &amp; the &quot;fan art&quot;!
      </div>
      <div>
        <span class="time" title="2025-05-27T05:15:56Z">2&nbsp;days, 3&nbsp;hours ago</span>
        <a class="reply" style="display: none;" data-comment-id="301" data-parent-thread="301" data-commentee-id="1882674" data-control="reply-to"><span>Reply</span></a>
      </div>
    </div>
  </div>
  <ul class="replies">
    <li class="reply">
      <div id="comments-302" class="comment " data-comment-id="302">
        <a href="/users/nocountry" id="comment-user" data-comment-user="nocountry"><img class="avatar" src="//cdn2.scratch.mit.edu/get_image/user/5000001_60x60.png" width="45" height="45"></a>
        <div class="info">
          <div class="name"><a href="/users/nocountry">nocountry</a></div>
          <div class="content"><a href="/users/griffpatch">@griffpatch</a> you're welcome</div>
          <div>
            <span class="time" title="2025-05-28T10:00:00Z">1&nbsp;day ago</span>
            <a class="reply" data-comment-id="302" data-parent-thread="301" data-commentee-id="5000001" data-control="reply-to"><span>Reply</span></a>
          </div>
        </div>
      </div>
    </li>
  </ul>
</li>
</ul>`;

/** The answer to a refused profile comment. */
export const profileRefusalHtml =
  '<script id="error-data" type="application/json">{"error": "isFlood", "mute_status": {}}</script>';
