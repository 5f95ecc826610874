import type { PageOf } from '../../../server/src/http/common.schemas';
import { baseApi } from '../../services/baseApi';

// Spec area "Payments" (issue 11): credit packs, a checkout session (Stripe's page, or the built-in
// test checkout without Stripe keys), the user's payments, and the test checkout's own calls.
// A completed payment credits the account, so it invalidates the balance and the ledger.

export type PaymentMode = 'stripe' | 'test';

export interface CreditPack {
  id: string;
  name: string;
  credits: number;
  amount_cents: number;
  currency: string;
}

export interface CreditPacks {
  mode: PaymentMode;
  items: CreditPack[];
}

export interface CheckoutSession {
  /** Our payment id. */
  id: string;
  /** Stripe's hosted page (an absolute URL), or an app path to the test checkout. */
  checkout_url: string;
  mode: PaymentMode;
}

export interface CheckoutSessionIn {
  pack_id: string;
  /** App paths ('/billing?payment=success'); the server's defaults when absent. */
  success_path?: string;
  cancel_path?: string;
}

/** The statuses the screens know; a newer server may answer another, shown as it is. */
export const PAYMENT_STATUSES = ['pending', 'completed', 'cancelled', 'expired', 'failed', 'refunded', 'partially_refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export interface Payment {
  id: string;
  pack_id: string;
  pack_name: string;
  credits: number;
  amount_cents: number;
  currency: string;
  status: PaymentStatus | (string & {});
  provider: string;
  refunded_cents: number;
  created_at: string;
  completed_at: string | null;
}

export interface TestCheckout {
  id: string;
  pack_name: string;
  credits: number;
  amount_cents: number;
  currency: string;
  status: PaymentStatus | (string & {});
  test_mode: true;
}

export interface RedirectOut {
  /** An app path to go to next (the checkout's success or cancel path). */
  redirect_path: string;
}

const creditedTags = [
  { type: 'Balance' as const, id: 'ME' },
  { type: 'Balance' as const, id: 'ENTRIES' },
  { type: 'Payment' as const, id: 'LIST' },
];

export const paymentsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listCreditPacks: build.query<CreditPacks, void>({
      query: () => '/payments/packs',
    }),
    createCheckoutSession: build.mutation<CheckoutSession, CheckoutSessionIn>({
      query: (body) => ({ url: '/payments/create-checkout-session', method: 'POST', body }),
      invalidatesTags: [{ type: 'Payment', id: 'LIST' }],
    }),
    listPayments: build.query<PageOf<Payment>, { page?: number; pageSize?: number; status?: PaymentStatus }>({
      query: ({ page = 1, pageSize = 10, status }) => ({ url: '/payments/', params: { page, page_size: pageSize, ...(status ? { status } : {}) } }),
      providesTags: [{ type: 'Payment', id: 'LIST' }],
    }),
    getTestCheckout: build.query<TestCheckout, string>({
      query: (id) => `/payments/test-checkout/${encodeURIComponent(id)}`,
      providesTags: (_r, _e, id) => [{ type: 'Payment', id }],
    }),
    completeTestCheckout: build.mutation<RedirectOut, string>({
      query: (id) => ({ url: `/payments/test-checkout/${encodeURIComponent(id)}/complete`, method: 'POST', body: {} }),
      invalidatesTags: (_r, _e, id) => [...creditedTags, { type: 'Payment', id }],
    }),
    cancelTestCheckout: build.mutation<RedirectOut, string>({
      query: (id) => ({ url: `/payments/test-checkout/${encodeURIComponent(id)}/cancel`, method: 'POST', body: {} }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Payment', id: 'LIST' }, { type: 'Payment', id }],
    }),
  }),
});

export const {
  useListCreditPacksQuery,
  useCreateCheckoutSessionMutation,
  useListPaymentsQuery,
  useGetTestCheckoutQuery,
  useCompleteTestCheckoutMutation,
  useCancelTestCheckoutMutation,
} = paymentsApi;
