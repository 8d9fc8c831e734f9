/**
 * Reading the HTML some of the site's answers are (a profile's activity, profile comments):
 * htmlparser2 builds the tree, forgiving as browsers are; these few helpers find elements by tag,
 * class, id or attribute and read their text. No regular expressions over markup.
 */
import { DomHandler, DomUtils, Parser, type parseDocument } from 'htmlparser2';

/** A parsed HTML document. */
type HtmlDocument = ReturnType<typeof parseDocument>;
/** An element of a parsed document. */
export type HtmlElement = ReturnType<typeof DomUtils.findAll>[number];
/** A document or an element: where a search starts. */
export type HtmlRoot = HtmlDocument | HtmlElement;

/** What an element must be to match; every given part must hold. */
interface ElementTest {
  /** Tag name, lowercase (`li`, `span`). */
  tag?: string;
  /** One of its classes (`actor` matches `class="actor big"`). */
  className?: string;
  id?: string;
  /** An attribute it has (any value), or `[name, value]` for an exact value. */
  attribute?: string | readonly [string, string];
}

/** The deepest nesting read: real pages nest a few dozen levels; the searches cost more per level. */
const MAX_HTML_DEPTH = 1_000;

/** HTML nested deeper than {@link MAX_HTML_DEPTH}: refused before anything walks it. */
export class HtmlDepthError extends RangeError {
  override readonly name = 'HtmlDepthError';
  constructor(readonly limit: number) {
    super(`the HTML nests deeper than ${limit} levels; refused`);
  }
}

/**
 * Parses HTML text (a whole page or a fragment). Entities are decoded in text and attributes.
 * @throws HtmlDepthError when elements nest deeper than {@link MAX_HTML_DEPTH} (a hostile page
 *   would otherwise make the parse and every search slow, and overflow the text readers' stack).
 */
export function parseHtml(html: string): HtmlDocument {
  if (typeof html !== 'string') throw new TypeError('html must be a string');
  const options = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };
  const handler = new DepthLimitedHandler();
  new CellScopedParser(handler, html, options).end(html);
  return handler.root;
}

/**
 * Elements an end tag may not close past (HTML's "has an element in scope"): a stray `</div>`
 * inside a table cell is ignored, as browsers ignore it. The forum's topic rows carry exactly
 * such a tag (WIRE.md §12.7); htmlparser2 alone would close the whole table at it.
 */
const SCOPE_BOUNDARIES = new Set([
  'td',
  'th',
  'caption',
  'table',
  'html',
  'template',
  'object',
  'marquee',
  'applet',
]);
/** End tags htmlparser2 acts on even when nothing of their name is open. */
const KEEP_HANDLING = new Set([
  'p',
  'br',
  'svg',
  'math',
  'foreignobject',
  'desc',
  'title',
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'annotation-xml',
]);
/** End tags that belong to the table's own structure and close a cell as they should. */
const TABLE_PARTS = new Set(['table', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th', 'caption']);

/** htmlparser2's parser, ignoring an end tag whose element is open only outside the current cell. */
class CellScopedParser extends Parser {
  readonly #handler: DepthLimitedHandler;
  readonly #source: string;

  constructor(
    handler: DepthLimitedHandler,
    source: string,
    options: ConstructorParameters<typeof Parser>[1],
  ) {
    super(handler, options);
    this.#handler = handler;
    this.#source = source;
  }

  /** @internal The whole text is parsed in one `end()`, so the indices are offsets into it. */
  override onclosetag(start: number, endIndex: number): void {
    const name = this.#source.slice(start, endIndex).toLowerCase();
    // An end tag of nothing open changes nothing (htmlparser2 would search its whole stack for
    // it); `p`, `br` and the foreign-content tags keep htmlparser2's own handling.
    const stray = !this.#handler.isOpen(name) && !KEEP_HANDLING.has(name);
    if (stray || (!TABLE_PARTS.has(name) && this.#handler.closesPastScope(name))) {
      this.endIndex = endIndex;
      this.startIndex = endIndex + 1;
      return;
    }
    super.onclosetag(start, endIndex);
  }
}

/**
 * Parses XML text (an Atom feed) in htmlparser2's XML mode: names keep their case, no HTML
 * rules apply. Nesting is limited as in {@link parseHtml}.
 * @throws HtmlDepthError past {@link MAX_HTML_DEPTH} levels
 */
export function parseXml(xml: string): HtmlDocument {
  if (typeof xml !== 'string') throw new TypeError('xml must be a string');
  const handler = new DepthLimitedHandler(undefined, { xmlMode: true });
  new Parser(handler, { xmlMode: true, decodeEntities: true }).end(xml);
  return handler.root;
}

/**
 * htmlparser2's tree builder, counting open elements as it goes: past the limit it stops the
 * parse at once (the parser's own work grows with the depth at every tag, so counting after
 * parsing would come too late).
 */
class DepthLimitedHandler extends DomHandler {
  #depth = 0;
  /** The depths of the open elements of each name, innermost last. */
  readonly #openAt = new Map<string, number[]>();
  /** The depths of the open scope boundaries (table cells and the like), innermost last. */
  readonly #scopes: number[] = [];

  override onopentag(name: string, attribs: Record<string, string>): void {
    if (++this.#depth > MAX_HTML_DEPTH) throw new HtmlDepthError(MAX_HTML_DEPTH);
    super.onopentag(name, attribs);
    const depths = this.#openAt.get(name);
    if (depths) depths.push(this.#depth);
    else this.#openAt.set(name, [this.#depth]);
    if (SCOPE_BOUNDARIES.has(name)) this.#scopes.push(this.#depth);
  }

  override onclosetag(): void {
    const closing = this.tagStack.at(-1);
    if (closing && DomUtils.isTag(closing)) {
      this.#openAt.get(closing.name)?.pop();
      if (this.#scopes.at(-1) === this.#depth) this.#scopes.pop();
    }
    this.#depth--;
    super.onclosetag();
  }

  /** Is an element named `name` open? */
  isOpen(name: string): boolean {
    return (this.#openAt.get(name)?.length ?? 0) > 0;
  }

  /**
   * Would an end tag `name` close elements past a scope boundary (a table cell) to reach its own?
   * Constant time: a hostile page of a million end tags under deep nesting stays cheap.
   */
  closesPastScope(name: string): boolean {
    const at = this.#openAt.get(name)?.at(-1);
    return at !== undefined && (this.#scopes.at(-1) ?? 0) > at;
  }
}

function matches(element: HtmlElement, test: ElementTest): boolean {
  if (test.tag !== undefined && element.name !== test.tag) return false;
  if (test.id !== undefined && element.attribs.id !== test.id) return false;
  if (test.className !== undefined && !classesOf(element).includes(test.className)) return false;
  if (test.attribute !== undefined) {
    const [name, value] = typeof test.attribute === 'string' ? [test.attribute, undefined] : test.attribute;
    const actual = element.attribs[name];
    if (actual === undefined || (value !== undefined && actual !== value)) return false;
  }
  return true;
}

/** Every element under `root` (in document order) that passes `test`. */
export function findElements(root: HtmlRoot, test: ElementTest): HtmlElement[] {
  return DomUtils.findAll((element) => matches(element, test), root.children);
}

/** The first element under `root` that passes `test`, or `null`. */
export function findElement(root: HtmlRoot, test: ElementTest): HtmlElement | null {
  return DomUtils.findOne((element) => matches(element, test), root.children, true);
}

/** The element children of `element` (text and comments left out). */
export function childElements(element: HtmlRoot): HtmlElement[] {
  return element.children.filter((node): node is HtmlElement => DomUtils.isTag(node));
}

/** The classes of an element. */
export function classesOf(element: HtmlElement): string[] {
  return (element.attribs.class ?? '').split(/\s+/).filter((c) => c.length > 0);
}

/** An attribute's value, or `null`. */
export function attributeOf(element: HtmlElement, name: string): string | null {
  return element.attribs[name] ?? null;
}

/** The text of a node with runs of white space (no-break spaces too) made one space, trimmed. */
export function textOf(node: HtmlRoot): string {
  return normalizeSpace(DomUtils.textContent(node));
}

/** Runs of white space, U+00A0 included, as one space; trimmed. */
export function normalizeSpace(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
}

/**
 * The text directly inside `element`, between its child elements (their text left out), in
 * order: `<div><span>a</span> loved <a>b</a></div>` gives `['loved']`.
 */
export function ownTexts(element: HtmlElement): string[] {
  return element.children
    .filter((node) => DomUtils.isText(node))
    .map((node) => normalizeSpace(DomUtils.textContent(node)))
    .filter((text) => text.length > 0);
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

/**
 * A page that parsed but lacks what its reader needs (a heading, a table, a post's id): the
 * reader throws it naming what was missing, and {@link readHtmlAnswer} makes it an `ApiError`.
 */
export class UnreadablePageError extends Error {
  override readonly name = 'UnreadablePageError';
  constructor(readonly missing: string) {
    super(`the page has no ${missing}`);
  }
}
