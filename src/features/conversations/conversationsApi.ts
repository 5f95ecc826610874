import { baseApi } from '../../services/baseApi';
import type { AgentKind, ConversationCreateIn, ConversationDetailOut, ConversationOut, ConversationPage } from './conversationTypes';

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
  }),
});

export const { useListConversationsQuery, useCreateConversationMutation, useGetConversationQuery } = conversationsApi;
