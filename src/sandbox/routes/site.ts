import { CSRF_COOKIE, SESSION_COOKIE } from '../../http/cookies.js';
import type { LoginAnswer } from '../../records/records.js';
import type { SandboxContext } from '../context.js';
import { badRequest, forbidden, HttpError } from '../errors.js';
import { bodyText, isObject, json, parseJsonBody, readBody } from '../http-utils.js';
import type { Router } from '../router.js';
import { cookieSession, csrfMatches, newCsrfToken } from '../rules/auth.js';
import { dummyPasswordHash, verifyPassword } from '../rules/passwords.js';

const FORM_LIMIT = 16 * 1024;

/**
 * The answer of a refused login: HTTP 403 with the one-element array (WIRE.md §2.2), with the
 * keys of the captured refusal (`test/fixtures/captured/login-refused.json`).
 */
function loginRefused(username: string, msg: string, tries: number): HttpError {
  const answer: LoginAnswer = { username, num_tries: tries, success: 0, msg, messages: [], id: null };
  return new HttpError(403, 'Forbidden', msg, [answer]);
}

/** Login, session and logout on the site host (WIRE.md §2). */
export function siteRoutes(router: Router, ctx: SandboxContext): void {
  const { store, sessions, loginGuard, views } = ctx;

  // The root describes the sandbox, so a browser pointed at it sees where everything lives.
  router.get('/', () => json({ name: 'scratchlab sandbox', hosts: ctx.hosts }));

  router.get('/csrf_token', () =>
    json({}, 200, { 'Set-Cookie': `${CSRF_COOKIE}=${newCsrfToken()}; Path=/` }),
  );

  router.post('/login', async (req) => {
    if (!csrfMatches(req)) throw forbidden('CSRF verification failed');
    const body = parseJsonBody(await readBody(req.raw, FORM_LIMIT));
    if (!isObject(body) || typeof body.username !== 'string' || typeof body.password !== 'string') {
      throw badRequest('expected {"username": string, "password": string}');
    }
    const { username: given, password } = body;
    if (given.length === 0 || given.length > 100 || password.length > 1024) {
      throw badRequest('username or password has an impossible length');
    }
    const user = store.userByName(given);
    const name = user?.username ?? given;
    if (loginGuard.isLocked(given))
      throw loginRefused(name, 'Too many attempts', loginGuard.recentFailures(given));
    // The attempt is counted as a failure before the hash is awaited, so a burst of concurrent
    // guesses cannot all pass the lock check while the count is still low; a success forgets it.
    // The count, this attempt included, is the answer's `num_tries`.
    const tries = loginGuard.fail(given);
    // A miss costs one scrypt like a hit, so timing does not tell which names exist.
    const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
    if (!ok || !user?.passwordHash) throw loginRefused(name, 'Incorrect username or password.', tries);
    loginGuard.succeed(given);
    const session = sessions.create(user.id, user.username);
    // The keys of the captured answers (test/fixtures/captured/login-2019.json), and the X-Token
    // today's answers add.
    const answer: LoginAnswer = {
      username: user.username,
      token: session.token,
      num_tries: tries,
      success: 1,
      msg: '',
      messages: [],
      id: user.id,
    };
    return json([answer], 200, {
      'Set-Cookie': `${SESSION_COOKIE}="${session.id}"; Path=/; HttpOnly; SameSite=Lax`,
    });
  });

  router.get('/session', (req) => {
    const session = cookieSession(req, sessions);
    return json(session ? views.sessionInfo(session) : views.loggedOutSession());
  });

  router.post('/accounts/logout', async (req) => {
    const form = new URLSearchParams(bodyText(await readBody(req.raw, FORM_LIMIT)));
    if (!csrfMatches(req, form.get('csrfmiddlewaretoken'))) throw forbidden('CSRF verification failed');
    const session = cookieSession(req, sessions);
    if (session) sessions.drop(session);
    return json({}, 200, {
      'Set-Cookie': `${SESSION_COOKIE}=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/`,
    });
  });
}
