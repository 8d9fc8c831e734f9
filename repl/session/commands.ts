/**
 * The REPL's dot-commands: `.login [username]`, `.logout`, `.whoami`, and a `.help` that explains
 * the globals and helpers (node's own commands, `.editor`, `.load`, … stay).
 */
import { rm } from 'node:fs/promises';
import type { REPLServer } from 'node:repl';
import type { Session } from 'scratchlab';
import type { Sandbox } from 'scratchlab/sandbox';
import type { Activity } from '../terminal/activity.js';
import { askHidden, PromptCancelled, type PromptTerminal } from '../terminal/password.js';
import { style } from '../terminal/style.js';

/** What the commands work on. */
interface CommandContext {
  /** The prompt's session now (once it is open: it opens while the user types). */
  current(): Promise<Session>;
  /** Makes `session` the prompt's session (the `session` global). */
  replace(session: Session): void;
  /** The embedded sandbox, when the REPL started one (its logins are never saved). */
  sandbox(): Promise<Sandbox | null>;
  /** Where the saved session and history live (`HOME`, `XDG_*`). */
  env: Record<string, string | undefined>;
  /** The terminal, for the hidden password prompt; `null` when input is not a terminal. */
  terminal: PromptTerminal | null;
  /** Commands that wait for the network mark the REPL busy. */
  activity: Activity;
  color: boolean;
  /** Where the history is kept, for `.help`; `null` when it is not kept. */
  historyFile: string | null;
}

function question(repl: REPLServer, text: string): Promise<string> {
  return new Promise((resolve) => repl.question(text, resolve));
}

/** `demo_scratcher (id 1) on http://…`, or `anonymous on https://scratch.mit.edu`. */
export function whoami(session: Session): string {
  if (!session.loggedIn) return `anonymous on ${session.siteHost} (use .login to log in)`;
  return `${session.username} (user id ${session.userId}) on ${session.siteHost}`;
}

/** The `.help` text; `commands` are the REPL's dot-commands with their one-line help. */
function helpText(
  commands: Readonly<Record<string, { help?: string } | undefined>>,
  context: Pick<CommandContext, 'color' | 'historyFile'> & { sandbox: boolean },
): string {
  const paint = style(context.color);
  const h = (text: string) => paint.bold(text);
  const row = (left: string, right: string) => `  ${paint.cyan(left.padEnd(34))} ${right}`;
  const names = Object.keys(commands).sort();
  return [
    `${h('scratchlab REPL')}: TypeScript (types are stripped) with top-level await, on a Session of the platform.`,
    '',
    h('Globals'),
    row('session', 'the Session: session.users, .projects, .studios, .search, …'),
    ...(context.sandbox
      ? [row('sandbox', 'the embedded sandbox: sandbox.samples (ids, names), sandbox.accounts (logins)')]
      : []),
    row('Session, ApiError, PagedList, …', 'every export of the scratchlab package'),
    row('fs, path, require, …', "node's modules, as in node's REPL"),
    '',
    h('Helpers'),
    row('show(x, { rows, kind })', 'print records, or any objects, as a table now (rows: Infinity for all)'),
    row(
      'display(x, { rows, kind })',
      'show x now; the handle it answers has .update(y), redrawing it in place',
    ),
    row('plot(logs)', 'chart cloud log entries: plot(await cloud.logs()); .save("chart.svg") for SVG'),
    row('live(cloud, { variables, window })', 'chart cloud sets above the prompt; Ctrl-C or .stop() stops'),
    row('withProgress(label)', 'an onProgress callback drawing a bar on stderr, for any call taking one'),
    row('md`…`, html`…`, svg`…`', 'rich text for notebooks; printed here as its source (an SVG as a note)'),
    row('image(bytes or file)', 'a PNG, JPEG, GIF, WebP or SVG image; printed here as a one-line note'),
    '',
    h('Output'),
    '  Users, projects, studios, comments, classes, backpack items and search results print as tables',
    '  fitted to the terminal.',
    '  A list (session.users.followers(name)) is awaited for you; `for await` walks every page.',
    '  Downloads and list.all() draw a progress bar. An ApiError prints as one line.',
    '',
    h('Commands'),
    ...names.map((name) => row(`.${name}`, commands[name]?.help ?? '')),
    '',
    h('Keys'),
    `  Tab completes names and members · ↑/↓ history${context.historyFile ? ` (kept in ${context.historyFile})` : ''}`,
    '  Ctrl-C aborts the running call (nothing is bound), clears the line, or stops a live chart · Ctrl-D exits',
  ].join('\n');
}

/** Installs the commands on `repl`. */
export function defineCommands(repl: REPLServer, context: CommandContext): void {
  const paint = style(context.color);
  const say = (text: string) => repl.output.write(`${text}\n`);
  const failure = async (error: unknown): Promise<string> => {
    const [{ ApiError }, { formatApiError }] = await Promise.all([
      import('scratchlab'),
      import('../display/writer.js'),
    ]);
    if (error instanceof ApiError) return formatApiError(error, context.color);
    if (error instanceof PromptCancelled) return paint.dim('cancelled');
    return paint.red(error instanceof Error ? error.message : String(error));
  };
  /** Runs a command that waits, then gives the prompt back. */
  const busy = (work: () => Promise<void>): void => {
    const end = context.activity.begin();
    work()
      .catch(async (error: unknown) => say(await failure(error)))
      .finally(() => {
        repl.displayPrompt();
        end();
      });
  };

  repl.defineCommand('login', {
    help: 'Log in (asks for the password, hidden); on the real site the session is saved for next time',
    action(rest: string) {
      busy(async () => {
        const username = rest.trim() || (await question(repl, 'Username: ')).trim();
        if (!username) throw new PromptCancelled();
        const password = context.terminal
          ? await askHidden(`Password for ${username}: `, context.terminal)
          : await question(repl, `Password for ${username} (input is not a terminal: it shows): `);
        const { Session } = await import('scratchlab');
        const session = await Session.login(username, password, { hosts: (await context.current()).hosts });
        context.replace(session);
        let where = '';
        if (!(await context.sandbox())) {
          const { saveSession, sessionFile } = await import('scratchlab/workbench');
          const file = sessionFile(context.env);
          await saveSession(session, file);
          where = paint.dim(` (saved to ${file})`);
        }
        say(`${paint.green('logged in')} as ${whoami(session)}${where}`);
      });
    },
  });

  repl.defineCommand('logout', {
    help: 'Log out, and forget the saved session',
    action() {
      busy(async () => {
        const session = await context.current();
        if (session.loggedIn) await session.logout();
        if (!(await context.sandbox())) {
          const { sessionFile } = await import('scratchlab/workbench');
          await rm(sessionFile(context.env), { force: true });
        }
        say(`logged out: ${whoami(session)}`);
      });
    },
  });

  repl.defineCommand('whoami', {
    help: 'Who the session is logged in as, and where',
    action() {
      busy(async () => {
        say(whoami(await context.current()));
      });
    },
  });

  repl.defineCommand('help', {
    help: 'Show this help',
    action() {
      busy(async () => {
        say(helpText(repl.commands, { ...context, sandbox: (await context.sandbox()) !== null }));
      });
    },
  });
}
