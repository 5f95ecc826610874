import type { Static } from '@sinclair/typebox';
import type {
  CheckoutIn,
  CheckoutOut,
  CreditPackOut,
  PacksOut,
  PaymentMode,
  PaymentOut,
  PaymentsPage as PaymentsPageSchema,
  PaymentsQuery,
  RedirectOut,
  TestCheckoutOut,
} from '../../../server/src/modules/payments/payments.schemas';
import { baseApi } from '../../services/baseApi';

// Spec area "Payments" (issue 11): credit packs, a checkout session (Stripe's page, or the built-in
// test checkout without Stripe keys), the user's payments, and the test checkout's own calls.
// A succeeded payment credits the account, so it invalidates the balance and the ledger.

export type { PaymentMode };
export type CreditPack = Static<typeof CreditPackOut>;
export type CreditPacks = PacksOut;
/** `id` is our payment id; `checkout_url` is Stripe's hosted page (absolute) or the test checkout's app path. */
export type CheckoutSession = CheckoutOut;
/** Paths are app paths ('/billing?payment=success'); the server's defaults when absent. */
export type CheckoutSessionIn = CheckoutIn;
export type Payment = PaymentOut;
export type PaymentStatus = PaymentOut['status'];
export type PaymentsListQuery = Static<typeof PaymentsQuery>;
export type PaymentsPage = Static<typeof PaymentsPageSchema>;
export type TestCheckout = TestCheckoutOut;
/** `redirect_path`: an app path to go to next (the checkout's success or cancel path). */
export type { RedirectOut };

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
    listPayments: build.query<PaymentsPage, { page?: number; pageSize?: number; status?: PaymentsListQuery['status'] }>({
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
      invalidatesTags: (_r, _e, id) => [
        { type: 'Payment', id: 'LIST' },
        { type: 'Payment', id },
      ],
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
