/**
 * The text frames the alternate server sends just before it closes with 4005 or 4006: a plain
 * English sentence, not JSON, so that a library that logs what it cannot parse shows the user why.
 * The sandbox sends the same sentences on its alternate endpoint.
 */

/** Sent before close 4005 (a platform session cookie reached a server that is not the platform). */
export const PLATFORM_COOKIE_WARNING =
  'The cloud data library you are using is putting your Scratch account at risk by sending us your login token for no reason. Change your Scratch password immediately, then contact the maintainers of that library for further information. This connection is being refused to protect your security.';

/** Sent before close 4006 (the User-Agent does not say who runs the bot). */
export const USER_AGENT_WARNING =
  'Please provide a valid User-Agent header as required by https://docs.turbowarp.org/cloud-variables#advanced. If you use a cloud variable library, contact the author to find out how to do that.';
