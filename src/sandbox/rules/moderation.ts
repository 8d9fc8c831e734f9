/**
 * The sandbox's stand-in for the service's text filters: a few words that stand for the bad-word
 * detector (comments refuse them with `isBad`, studio titles with `inappropriate-generic`), and
 * the chat sites a comment may not link to (`hasChatSite`). Small on purpose: tests and demos
 * trigger them on purpose, ordinary text never does.
 */

/** Words the sandbox treats as inappropriate (whole words, any case). */
const INAPPROPRIATE_WORDS: readonly string[] = ['badword', 'idiot', 'stupid', 'shutup'];

const INAPPROPRIATE = new RegExp(`\\b(${INAPPROPRIATE_WORDS.join('|')})\\b`, 'i');
const CHAT_SITE = /\b(discord\.(gg|com|me)|t\.me|telegram\.(me|org)|chat\.whatsapp\.com|guilded\.gg)\b/i;

/** True when the text holds a word of {@link INAPPROPRIATE_WORDS}. */
export function isInappropriate(text: string): boolean {
  return INAPPROPRIATE.test(text);
}

/** True when the text links to a chat site. */
export function hasChatSite(text: string): boolean {
  return CHAT_SITE.test(text);
}
