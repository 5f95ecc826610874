import { baseApi } from '../../services/baseApi';
import type {
  BetaInterestRequestPage,
  BetaRequestIn,
  BetaRequestOut,
  BetaRequestStatus,
  BetaStatus,
  InvitationCode,
  InvitationCodePage,
  InvitationCodesCreateIn,
  InvitationCodesCreateOut,
  InvitationState,
  InviteOut,
  RedeemIn,
  SignupMode,
  VisitorRequestIn,
} from './betaTypes';

// Spec area "Beta": a user's request to join, the admins' invitation codes and the requests they
// answer with one, and whether sign-up needs a code (public: asked before anyone is signed in).
// One tag type ('Invitation') with an id per list, so inviting a request refreshes both lists.

const CODES = { type: 'Invitation' as const, id: 'CODES' };
const REQUESTS = { type: 'Invitation' as const, id: 'REQUESTS' };
const MY_STATUS = { type: 'Invitation' as const, id: 'MY_STATUS' };

export const betaApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getSignupMode: build.query<SignupMode, void>({
      query: () => '/beta-interest/signup-mode',
    }),
    getMyBetaStatus: build.query<BetaStatus, void>({
      query: () => '/users/me/beta-status',
      providesTags: [MY_STATUS],
    }),
    requestBeta: build.mutation<BetaRequestOut, BetaRequestIn>({
      query: (body) => ({ url: '/beta-interest/request', method: 'POST', body }),
      invalidatesTags: [MY_STATUS, REQUESTS],
    }),
    // A visitor without an account asks for a code (public: no token even if a stale one is
    // stored; the email says where to send it). Signed in, the beta page uses requestBeta.
    requestInvitation: build.mutation<BetaRequestOut, VisitorRequestIn>({
      query: (body) => ({ url: '/beta-interest/visitor-request', method: 'POST', body }),
    }),
    redeemInvitationCode: build.mutation<BetaStatus, RedeemIn>({
      query: (body) => ({ url: '/beta-interest/redeem', method: 'POST', body }),
      // The status changes to member; a used code's count changes, and the caller's request is settled.
      invalidatesTags: [MY_STATUS, CODES, REQUESTS],
    }),
    createInvitationCodes: build.mutation<InvitationCodesCreateOut, InvitationCodesCreateIn>({
      query: (body) => ({ url: '/beta-interest/admin/invitation-codes', method: 'POST', body }),
      invalidatesTags: [CODES],
    }),
    listInvitationCodes: build.query<InvitationCodePage, { page?: number; pageSize?: number; state?: InvitationState }>({
      query: ({ page = 1, pageSize = 20, state }) => ({
        url: '/beta-interest/admin/invitation-codes',
        params: { page, page_size: pageSize, ...(state ? { state } : {}) },
      }),
      providesTags: [CODES],
    }),
    revokeInvitationCode: build.mutation<InvitationCode, string>({
      query: (id) => ({ url: `/beta-interest/admin/invitation-codes/${encodeURIComponent(id)}/revoke`, method: 'POST' }),
      invalidatesTags: [CODES],
    }),
    listBetaRequests: build.query<BetaInterestRequestPage, { page?: number; pageSize?: number; status?: BetaRequestStatus }>({
      query: ({ page = 1, pageSize = 20, status }) => ({
        url: '/beta-interest/admin/requests',
        params: { page, page_size: pageSize, ...(status ? { status } : {}) },
      }),
      providesTags: [REQUESTS],
    }),
    inviteBetaRequest: build.mutation<InviteOut, string>({
      query: (id) => ({ url: `/beta-interest/admin/requests/${encodeURIComponent(id)}/invite`, method: 'POST' }),
      // The invitation is a new one-use code: both lists change.
      invalidatesTags: [REQUESTS, CODES],
    }),
  }),
});

export const {
  useGetSignupModeQuery,
  useGetMyBetaStatusQuery,
  useRequestBetaMutation,
  useRequestInvitationMutation,
  useRedeemInvitationCodeMutation,
  useCreateInvitationCodesMutation,
  useListInvitationCodesQuery,
  useRevokeInvitationCodeMutation,
  useListBetaRequestsQuery,
  useInviteBetaRequestMutation,
} = betaApi;
