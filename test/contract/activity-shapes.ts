/**
 * The shapes of WIRE.md §11 (messages, activity, statistics), one of each kind, field for field
 * as the section records them, typed with the SDK's records: if a type and the wire disagree,
 * this file stops compiling.
 */
import type { FeedItem, Message, StudioActivity } from '../../src/records/activity-records.js';

const actor = { actor_id: 1882674, actor_username: 'griffpatch' };

/** One message of every type of §11.1, newest first. */
export const messages: Message[] = [
  {
    id: 9_000_011,
    datetime_created: '2025-05-27T05:15:56.000Z',
    ...actor,
    actor_membership_label: 1,
    actor_membership_avatar_badge: 0,
    type: 'followuser',
    followed_user_id: 5000001,
    followed_username: 'nocountry',
  },
  {
    id: 9_000_010,
    datetime_created: '2025-05-27T04:00:00.000Z',
    ...actor,
    type: 'loveproject',
    project_id: 1076204740,
    title: 'Paper Minecraft',
  },
  {
    id: 9_000_009,
    datetime_created: '2025-05-26T23:59:59.000Z',
    ...actor,
    type: 'favoriteproject',
    project_id: 1076204740,
    project_title: 'Paper Minecraft',
  },
  {
    id: 9_000_008,
    datetime_created: '2025-05-26T12:00:00.000Z',
    ...actor,
    type: 'remixproject',
    project_id: 1100000001,
    title: 'Paper Minecraft remix',
    parent_id: 1076204740,
    parent_title: 'Paper Minecraft',
  },
  {
    id: 9_000_007,
    datetime_created: '2025-05-25T08:30:00.000Z',
    ...actor,
    type: 'addcomment',
    comment_type: 0,
    comment_obj_id: 1076204740,
    comment_obj_title: 'Paper Minecraft',
    comment_id: 412345678,
    comment_fragment: 'I &lt;3 this &amp; that',
    commentee_username: null,
  },
  {
    id: 9_000_006,
    datetime_created: '2025-05-25T08:00:00.000Z',
    ...actor,
    type: 'addcomment',
    comment_type: 1,
    comment_obj_id: 5000001,
    comment_obj_title: 'nocountry',
    comment_id: 412345600,
    comment_fragment: 'hi!',
    commentee_username: 'nocountry',
  },
  {
    id: 9_000_005,
    datetime_created: '2025-05-24T10:00:00.000Z',
    ...actor,
    type: 'curatorinvite',
    gallery_id: 30136012,
    title: 'Games Galore',
  },
  {
    id: 9_000_004,
    datetime_created: '2025-05-23T10:00:00.000Z',
    ...actor,
    type: 'becomeownerstudio',
    gallery_id: 30136012,
    gallery_title: 'Games Galore',
    recipient_id: 5000001,
    recipient_username: 'nocountry',
  },
  {
    id: 9_000_003,
    datetime_created: '2025-05-22T10:00:00.000Z',
    ...actor,
    type: 'becomehoststudio',
    gallery_id: 30136012,
    gallery_title: 'Games Galore',
    recipient_id: 5000001,
    recipient_username: 'nocountry',
    former_host_username: 'griffpatch',
    admin_actor: false,
  },
  {
    id: 9_000_002,
    datetime_created: '2025-05-21T10:00:00.000Z',
    actor_id: 2,
    actor_username: 'systemuser',
    type: 'studioactivity',
    gallery_id: 30136012,
    title: 'Games Galore',
  },
  {
    id: 9_000_001,
    datetime_created: '2025-05-20T10:00:00.000Z',
    ...actor,
    type: 'forumpost',
    topic_id: 600001,
    topic_title: 'Cloud variable limits?',
  },
  { id: 9_000_000, datetime_created: '2020-01-01T00:00:00.000Z', ...actor, type: 'userjoin' },
];

/** A studio's activity, newest first; ids are `"<type>-<n>"`. */
export const studioActivity: StudioActivity[] = [
  {
    id: 'addprojecttostudio-171',
    datetime_created: '2025-05-27T05:15:56.000Z',
    ...actor,
    type: 'addprojecttostudio',
    project_id: 1076204740,
    project_title: 'Paper Minecraft',
  },
  {
    id: 'removeprojectstudio-170',
    datetime_created: '2025-05-27T05:15:56.000Z',
    ...actor,
    type: 'removeprojectstudio',
    project_id: 1100000001,
    project_title: 'Paper Minecraft remix',
  },
  { id: 'updatestudio-169', datetime_created: '2025-05-26T00:00:00.000Z', ...actor, type: 'updatestudio' },
  {
    id: 'becomecurator-168',
    datetime_created: '2025-05-25T00:00:00.000Z',
    actor_id: 5000001,
    actor_username: 'nocountry',
    type: 'becomecurator',
    username: 'nocountry',
  },
  {
    id: 'removecuratorstudio-167',
    datetime_created: '2025-05-24T00:00:00.000Z',
    ...actor,
    type: 'removecuratorstudio',
    username: 'leaver',
  },
  {
    id: 'becomeownerstudio-166',
    datetime_created: '2025-05-23T00:00:00.000Z',
    ...actor,
    type: 'becomeownerstudio',
    recipient_username: 'nocountry',
  },
  {
    id: 'becomehoststudio-165',
    datetime_created: '2025-05-22T00:00:00.000Z',
    actor_id: 3,
    actor_username: 'ScratchTeamMember',
    actor_membership_label: 0,
    type: 'becomehoststudio',
    recipient_username: 'nocountry',
    former_host_username: 'griffpatch',
    admin_actor: true,
  },
];

/** "What's happening" rows, one of each type. */
export const feed: FeedItem[] = [
  {
    id: 71,
    datetime_created: '2025-05-27T05:15:56.000Z',
    ...actor,
    type: 'shareproject',
    project_id: 1,
    title: 'New game',
  },
  {
    id: 70,
    datetime_created: '2025-05-27T05:00:00.000Z',
    ...actor,
    type: 'loveproject',
    project_id: 2,
    title: 'Loved one',
  },
  {
    id: 69,
    datetime_created: '2025-05-27T04:00:00.000Z',
    ...actor,
    type: 'favoriteproject',
    project_id: 3,
    project_title: 'Faved one',
  },
  {
    id: 68,
    datetime_created: '2025-05-27T03:00:00.000Z',
    ...actor,
    type: 'followuser',
    followed_user_id: 5000001,
    followed_username: 'nocountry',
  },
  {
    id: 67,
    datetime_created: '2025-05-27T02:00:00.000Z',
    ...actor,
    type: 'followstudio',
    gallery_id: 4,
    title: 'A studio',
  },
  {
    id: 66,
    datetime_created: '2025-05-27T01:00:00.000Z',
    ...actor,
    type: 'remixproject',
    project_id: 5,
    title: 'Remix',
    parent_id: 2,
    parent_title: 'Loved one',
  },
  {
    id: 65,
    datetime_created: '2025-05-26T01:00:00.000Z',
    ...actor,
    type: 'becomecurator',
    username: 'griffpatch',
    gallery_id: 4,
    title: 'A studio',
  },
  {
    id: 64,
    datetime_created: '2025-05-25T01:00:00.000Z',
    ...actor,
    type: 'becomeownerstudio',
    recipient_id: 1882674,
    recipient_username: 'griffpatch',
    gallery_id: 4,
    gallery_title: 'A studio',
  },
];

/**
 * A profile's activity page as the real site writes it: an avatar link, then a `<div>` with the
 * actor, the verb, links and a relative time whose spaces are `&nbsp;`; whitespace everywhere.
 */
export const userActivityHtml = `
<ul class="activity-stream">
  <li>
    <a href="/users/griffpatch/"><img class="avatar" src="//cdn2.scratch.mit.edu/get_image/user/1882674_60x60.png" width="60" height="60"></a>
    <div>
      <span class="actor">griffpatch</span>
      loved
      <a href="/projects/1076204740/">Paper &amp; Minecraft</a>
      <span class="time">2&nbsp;days, 3&nbsp;hours ago</span>
    </div>
  </li>
  <li>
    <a href="/users/griffpatch/"><img class="avatar" src="//cdn2.scratch.mit.edu/get_image/user/1882674_60x60.png"></a>
    <div>
      <span class="actor">griffpatch</span>
      is now following the studio
      <a href="/studios/30136012/">Games Galore</a>
      <span class="time">1&nbsp;week ago</span>
    </div>
  </li>
  <li>
    <div>
      <span class="actor">griffpatch</span> is now following <a href="/users/nocountry/">nocountry</a>
      <span class="time">3&nbsp;weeks, 1&nbsp;day ago</span>
    </div>
  </li>
  <li>
    <div>
      <span class="actor">griffpatch</span> added <a href="/projects/1076204740/">Paper Minecraft</a> to
      <a href="/studios/30136012/">Games Galore</a>
      <span class="time">2&nbsp;months ago</span>
    </div>
  </li>
  <li>
    <div>
      <span class="actor">griffpatch</span> did something new <a href="/discuss/topic/1/">a topic</a>
      <span class="time">11&nbsp;months, 2&nbsp;weeks ago</span>
    </div>
  </li>
  <li>
    <div><span class="actor">griffpatch</span> joined Scratch <span class="time">1&nbsp;year ago</span></div>
  </li>
  <li class="not-an-item">no actor here</li>
</ul>
`;

/** `daily`: ints and a float `_TS` (R S6). */
export const daily = {
  PROJECT_COUNT: 1_234_567_890,
  USER_COUNT: 135_000_000,
  STUDIO_COUNT: 40_000_000,
  COMMENT_COUNT: 1_000_000_000,
  PROJECT_COMMENT_COUNT: 600_000_000,
  PROFILE_COMMENT_COUNT: 250_000_000,
  STUDIO_COMMENT_COUNT: 150_000_000,
  _TS: 1_748_322_956.123456,
};

/** `monthly-ga`: the three counts as digit strings. */
export const monthlyGa = {
  _TS: 1_748_322_956.5,
  pageviews: '561234567',
  users: '45123456',
  sessions: '120000123',
};

/** `monthly`: series of `{key, color?, values: [{x, y}]}`, and countries with a `"0"` key. */
export const monthly = {
  _TS: 1_748_322_956.5,
  comment_data: [
    { key: 'Project Comments', color: '#FF9F00', values: [{ x: 1_704_067_200_000, y: 6_000_000 }] },
    { key: 'Studio Comments', values: [{ x: 1_704_067_200_000, y: 2_000_000 }] },
    { key: 'Profile Comments', values: [{ x: 1_704_067_200_000, y: 2_500_000 }] },
  ],
  activity_data: [],
  active_user_data: [],
  project_data: [],
  age_distribution_data: [{ key: 'Registration age', values: [{ x: 12, y: 900_000 }] }],
  country_distribution: { '0': 123, 'United States': 40_000_000 },
};
