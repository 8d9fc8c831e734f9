/** A page that lacks what its reader needs: it names what was missing, instead of reading as empty. */
export class HtmlShapeError extends Error {
  override readonly name = 'HtmlShapeError';
  constructor(readonly missing: string) {
    super(`the page could not be read: ${missing}`);
  }
}
