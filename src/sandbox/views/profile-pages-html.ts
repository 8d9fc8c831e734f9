/**
 * The profile's list pages as far as the readers need them (the site's own templates for these
 * pages are not public): the first `div.box-head h2` states the total ("Followers (1234)", the
 * heading words `kakeruzoku/scapi`'s and scratchattach's count readers look for), and the loves
 * page lists `div.media-grid li.project.thumb.item` with `span.title a` and `span.owner a` (what
 * scapi's and scratchattach's readers take from it). No count is shown when nothing is loved.
 */
import { escapeHtml } from '../../records/html.js';

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><title>${escapeHtml(title)} on Scratch</title></head>
<body>
<div id="pagewrapper"><div id="content">
${body}
</div></div>
</body>
</html>
`;
}

/**
 * A profile page's header, as far as readers use it: the user's name and, last in
 * `div.header-text`, the `span.group` ("New Scratcher", "Scratcher", "Scratch Team").
 */
export function profilePageHtml(username: string, group: string, joined: string): string {
  return page(
    username,
    `<div class="box slider-carousel-container">
  <div class="box-head">
    <div class="header-text">
      <h2>${escapeHtml(username)}</h2>
      <p class="profile-details"><span class="group">${escapeHtml(group)}</span> Joined <span title="${escapeHtml(joined)}">${escapeHtml(joined.slice(0, 10))}</span></p>
    </div>
  </div>
</div>`,
  );
}

/** A list page whose heading states `label (count)`. */
export function profileCountHtml(username: string, label: string, count: number): string {
  return page(
    `${username}: ${label}`,
    `<div class="box">
  <div class="box-head"><h2>${escapeHtml(label)} (${count})</h2></div>
  <div class="box-content"><div class="media-grid"><ul class="media-collection"></ul></div></div>
</div>`,
  );
}

/** One page of the projects `username` loves; `total` is stated only when above 0. */
export function lovesPageHtml(
  username: string,
  projects: readonly { id: number; title: string; author: string }[],
  total: number,
): string {
  const items = projects.map(
    (p) => `<li class="project thumb item">
  <a href="/projects/${p.id}/"><img class="lazy image" src="/get_image/project/${p.id}_144x108.png" width="144" height="108" /></a>
  <span class="title"><a href="/projects/${p.id}/">${escapeHtml(p.title)}</a></span>
  <span class="owner">by <a href="/users/${encodeURIComponent(p.author)}/">${escapeHtml(p.author)}</a></span>
</li>`,
  );
  const heading =
    total > 0
      ? `Projects ${escapeHtml(username)} Loves &raquo;\n\n (${total})`
      : `Projects ${escapeHtml(username)} Loves`;
  return page(
    `Projects ${username} loves`,
    `<div class="box">
  <div class="box-head"><h2>${heading}</h2></div>
  <div class="box-content"><div class="media-grid"><ul class="media-collection">
${items.join('\n')}
  </ul></div></div>
</div>`,
  );
}
