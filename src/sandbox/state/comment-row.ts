/** One comment of a project, a studio or a profile, as the sandbox holds it. */
export interface CommentRow {
  id: number;
  /** Id of the top-level comment this one answers, or `null`. */
  parentId: number | null;
  /** User id of the person a reply answers, or `null`. */
  commenteeId: number | null;
  authorId: number;
  content: string;
  created: string;
}
