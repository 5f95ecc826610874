import { baseApi } from '../../services/baseApi';
import type { AgentKind, ConversationCreateIn, ConversationDetailOut, ConversationMessageOut, ConversationOut, ConversationPage } from './conversationTypes';
import { workflowEditTags } from './workflowEditTags';

// Spec area "Conversations" (docs/agents.md): the list (newest first, by workflow or agent), a new
// conversation, one with its messages. Sending a message is a stream, not an endpoint here: see
// chatStream.ts, which writes the finished turn into getConversation's cache.

export interface ConversationListArgs {
  page?: number;
  pageSize?: number;
  workflowId?: string;
  agent?: AgentKind;
}

export const conversationsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listConversations: build.query<ConversationPage, ConversationListArgs>({
      query: ({ page = 1, pageSize = 20, workflowId, agent }) => ({
        url: '/conversations',
        params: { page, page_size: pageSize, ...(workflowId ? { workflow_id: workflowId } : {}), ...(agent ? { agent } : {}) },
      }),
      providesTags: (result) => [{ type: 'Conversation', id: 'LIST' }, ...(result?.items ?? []).map((c) => ({ type: 'Conversation' as const, id: c.id }))],
    }),
    createConversation: build.mutation<ConversationOut, ConversationCreateIn>({
      query: (body) => ({ url: '/conversations', method: 'POST', body }),
      invalidatesTags: [{ type: 'Conversation', id: 'LIST' }],
    }),
    getConversation: build.query<ConversationDetailOut, string>({
      query: (id) => `/conversations/${encodeURIComponent(id)}`,
      providesTags: (_r, _e, id) => [{ type: 'Conversation', id }],
    }),
    /** Writes a dry run's proposal exactly as it was shown, as one commit. */
    applyProposal: build.mutation<ConversationMessageOut, { conversationId: string; messageId: string; workflowId: string }>({
      query: ({ conversationId, messageId }) => ({
        url: `/conversations/${encodeURIComponent(conversationId)}/messages/${encodeURIComponent(messageId)}/apply`,
        method: 'POST',
      }),
      invalidatesTags: (result, _e, { conversationId, workflowId }) => [
        { type: 'Conversation', id: conversationId },
        ...(result ? workflowEditTags(workflowId) : []),
      ],
    }),
  }),
});

export const { useListConversationsQuery, useCreateConversationMutation, useGetConversationQuery, useApplyProposalMutation } = conversationsApi;
