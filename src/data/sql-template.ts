/**
 * The tagged template of the store: ``sql`select * from projects where author = ${name}` ``
 * becomes the text `… where author = $1` and the parameter `name`. Values are always parameters,
 * never text in the SQL, so no value can change the statement.
 */

/** A statement and its parameters. */
interface Statement {
  text: string;
  params: unknown[];
}

/** Builds the statement of a tagged template. */
export function statementOf(strings: TemplateStringsArray, values: readonly unknown[]): Statement {
  if (!Array.isArray(strings) || !Array.isArray((strings as { raw?: unknown }).raw)) {
    throw new TypeError('sql is a tagged template: write sql`select …`, not sql(…)');
  }
  let text = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) text += `$${i + 1}${strings[i + 1] ?? ''}`;
  return { text, params: [...values] };
}
