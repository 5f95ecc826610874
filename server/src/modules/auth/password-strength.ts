import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import type { Problem } from '../../lib/errors';
import { translate, type Language } from '../../i18n/messages';

/**
 * Refuses passwords an attacker would guess early: the most common passwords, keyboard rows, dates,
 * repeats, and the person's own email or name. zxcvbn estimates how many guesses a password takes
 * from dictionaries of common passwords, words and names; its score 3 means about 10^8 guesses or
 * more. We require 3, not 4: with argon2id hashing and sign-in rate limits, 10^8 guesses is out of
 * reach of both online guessing and a cracked database for years, while 4 (10^10) refuses many
 * memorable passphrases of two uncommon words.
 */
export const MIN_SCORE = 3;

let estimator: Promise<ZxcvbnFactory> | undefined;

/**
 * The dictionaries are several MB: loaded on the first password checked, once per process, and only
 * on the server (the web app shows the server's verdict instead of shipping them to browsers).
 */
function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
    ]);
    // No `translations`: feedback comes back as ids, which we map to our own catalog keys below, so
    // a Chinese reader never sees the library's English. The check is synchronous CPU work on the
    // request path, so it is bounded (measured on these dictionaries): Levenshtein matching stays
    // off (up to seconds per check), only the first 64 characters are examined, and look-alike
    // (l33t) substitutions are tried at most 10 ways. With the defaults a random 64-character
    // password took about a second, a 256-character one several; with these, tens of milliseconds,
    // and "P@ssw0rd2024!"-style passwords still score low.
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      maxLength: 64,
      l33tMaxSubstitutions: 10,
    });
  })().catch((err: unknown) => {
    estimator = undefined;
    throw err;
  });
  return estimator;
}

/** Loads the dictionaries now rather than on the first password checked (test/test-app.ts). */
export async function loadPasswordChecker(): Promise<void> {
  await loadEstimator();
}

/** zxcvbn's warning ids → our reasons (`server.password.warning.*`, a clause). */
const WARNINGS = new Set([
  'straightRow',
  'keyPattern',
  'simpleRepeat',
  'extendedRepeat',
  'sequences',
  'recentYears',
  'dates',
  'topTen',
  'topHundred',
  'common',
  'similarToCommon',
  'wordByItself',
  'namesByThemselves',
  'commonNames',
  'userInputs',
  'pwned',
]);
/** zxcvbn's suggestion ids → our advice (`server.password.suggestion.*`, a sentence each). */
const SUGGESTIONS = new Set([
  'l33t',
  'reverseWords',
  'allUppercase',
  'capitalization',
  'dates',
  'recentYears',
  'associatedYears',
  'sequences',
  'repeated',
  'longerKeyboardPattern',
  'anotherWord',
  'useWords',
  'noNeed',
  'pwned',
]);

/** What a guesser tries first for this person: their email and its parts, their name and its parts, the site. */
export function personalWords(email: string, name: string): string[] {
  const [local = '', domain = ''] = email.toLowerCase().split('@');
  const nameWords = name.toLowerCase().split(/\s+/).filter(Boolean);
  const words = [
    email.toLowerCase(),
    local,
    ...local.split(/[^a-z0-9]+/),
    domain,
    ...domain.split('.').slice(0, -1),
    name.toLowerCase(),
    nameWords.join(''),
    ...nameWords,
    'stepwise',
  ];
  return [...new Set(words.filter((w) => w.length >= 3))];
}

/**
 * Null when the password is hard enough to guess; otherwise the problem to answer (422 at `loc`),
 * saying why and what helps, in the reader's language.
 */
export async function weakPasswordProblem(password: string, who: { email: string; name: string }, language: Language, loc: string[]): Promise<Problem | null> {
  const result = (await loadEstimator()).check(password, personalWords(who.email, who.name));
  if (result.score >= MIN_SCORE) return null;

  const warning = result.feedback.warning && WARNINGS.has(result.feedback.warning) ? result.feedback.warning : null;
  const known = result.feedback.suggestions.filter((id) => SUGGESTIONS.has(id));
  const advice = (known.length ? known : ['anotherWord'])
    .map((id) => translate(language, `server.password.suggestion.${id}`))
    .join(language === 'zh-CN' ? '' : ' ');
  return warning
    ? { key: 'server.password.tooWeakBecause', values: { reason: translate(language, `server.password.warning.${warning}`), advice }, loc }
    : { key: 'server.password.tooWeak', values: { advice }, loc };
}
