import type { BillingConfig } from '../../config/config';
import type { Db } from '../../db/database';
import { translate, type Language } from '../../i18n/messages';
import { Ledger, toMicro } from './ledger';

/**
 * The credits a new account starts with (BILLING_SIGNUP_CREDITS), once: the key names the user, so
 * a retried sign-up cannot grant twice. Nothing with billing off.
 */
export async function grantSignupCredits(db: Db, billing: BillingConfig, userId: string, language: Language): Promise<void> {
  if (!billing.enabled || billing.signupCredits <= 0) return;
  await new Ledger(db).append([
    {
      userId,
      kind: 'grant',
      creditsMicro: toMicro(billing.signupCredits),
      idempotencyKey: `signup:${userId}`,
      description: translate(language, 'server.usage.signupGrant'),
    },
  ]);
}
