import type { Language, MessageValues } from '../i18n/messages';

/**
 * What a service, repository or the engine throws on purpose, in the domain's words: what kind of
 * failure it is and a catalog key for the text people read. They know nothing of HTTP; the
 * error plugin maps each kind to a status (`http/error-status.ts`), so the same service can serve
 * a route, a worker or an agent's tool.
 */
export type FailureKind =
  /** The thing does not exist, or belongs to someone else (ids reveal nothing). */
  | 'not_found'
  /** The request is valid but clashes with the current state (a taken name, a stale version). */
  | 'conflict'
  /** The caller is known but may not do this. */
  | 'forbidden'
  /** The credentials are wrong. */
  | 'unauthenticated'
  /** More bytes than allowed. */
  | 'too_large'
  /** What was sent does not match what was promised (a size, a checksum, a spent link). */
  | 'rejected'
  /** A service we depend on failed. */
  | 'upstream_failed'
  /** Not enough credits for this (billing is on and the balance is below the cost). */
  | 'payment_required';

/** A modal the client shows with the error (spec §7): its id, level, text and buttons. */
export interface ModalNotice {
  modal_id: string;
  level: 'success' | 'warning' | 'error' | 'info';
  /** A catalog key, translated with the error's values when answered (the buttons are names, as sent). */
  content: string;
  buttons: string[];
}

export class DomainError extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly messageKey: string,
    readonly values: MessageValues = {},
    readonly modal?: ModalNotice,
  ) {
    super(messageKey);
    this.name = 'DomainError';
  }
}

export const notFound = (key = 'server.errors.notFound', values?: MessageValues) => new DomainError('not_found', key, values);
export const conflict = (key: string, values?: MessageValues) => new DomainError('conflict', key, values);
export const forbidden = (key = 'server.errors.forbidden') => new DomainError('forbidden', key);
export const unauthenticated = (key: string) => new DomainError('unauthenticated', key);
export const tooLarge = (key: string, values?: MessageValues) => new DomainError('too_large', key, values);
export const rejected = (key: string, values?: MessageValues) => new DomainError('rejected', key, values);
export const upstreamFailed = (key: string, values?: MessageValues) => new DomainError('upstream_failed', key, values);

/**
 * One located problem with what was asked, as a catalog key. `loc` names the field of the request
 * as the caller sent it (`["body", "name"]`, `["body", "param_inputs", "mapping"]`), so the client
 * can show the message under that field.
 */
export interface Problem {
  key: string;
  values?: MessageValues;
  loc: (string | number)[];
  /** Values that are words people read, given per language (a step param's label): put into the text in the caller's. */
  words?: Record<string, Words>;
  /**
   * The field as the user sees it on the page, when `loc`'s last name is an API name only code
   * reads (a step's param `file` is “File” on the step form): answered as the item's `label`.
   */
  label?: Words;
}

/** Words in English and, when known, Chinese; the English serves any language without its own. */
export interface Words {
  en: string;
  'zh-CN'?: string;
}

export const wordsIn = (words: Words, language: Language): string => words[language] ?? words.en;

/**
 * Rules a schema cannot express (a cycle in the step graph, a param that does not fit its step
 * type, a name that is not allowed): answered like schema validation, 422 `{errors: [{msg, loc}]}`,
 * so the client shows them the same way.
 */
export class ValidationFailed extends Error {
  constructor(readonly problems: Problem[]) {
    super(problems.map((p) => p.key).join(', '));
    this.name = 'ValidationFailed';
  }
}

/** A single problem at one place. */
export const invalid = (key: string, loc: (string | number)[], values?: MessageValues, more?: Pick<Problem, 'words' | 'label'>) =>
  new ValidationFailed([{ key, loc, values, ...more }]);
