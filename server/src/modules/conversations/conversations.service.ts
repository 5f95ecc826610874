import { randomUUID } from 'node:crypto';
import { streamText, stepCountIs } from 'ai';
import { describeModelFailure, modelCallFailed } from '../../ai';
import type { Db } from '../../db/database';
import type { AgentKind, MessageStatus } from '../../db/schema';
import { translate, type Language, type MessageValues } from '../../i18n/messages';
import { conflict, DomainError, invalid, notFound } from '../../lib/errors';
import type { Log } from '../../lib/logger';
import type { UsageCharges } from '../usage/usage-charges';
import { MAX_AGENT_STEPS, startAgentTurn, type AgentDeps, type AgentTurn } from '../agents/agent-runtime';
import { isToolError } from '../agents/agent-tools';
import { publicCard, type StoredCommitCard } from '../agents/proposal';
import { StepsService } from '../steps/steps.service';
import type { UserModels } from '../users/user-models';
import { editorFor, WorkflowsService } from '../workflows/workflows.service';
import { historyForModel } from './conversation-turn';
import { ConversationsRepository, type ConversationRow, type MessageRow } from './conversations.repository';
import {
  TITLE_CHARS,
  type CommitCard,
  type ConversationCreateIn,
  type ConversationDetailOut,
  type ConversationListQuery,
  type ConversationMessageOut,
  type ConversationOut,
  type MessagePart,
  type Usage,
} from './conversations.schemas';

/** One server-sent event of a turn (docs/agents.md); `error` also carries what failed, for the JSON calls. */
export interface TurnEvent {
  event: 'message_start' | 'text_delta' | 'tool_call' | 'tool_result' | 'commit' | 'done' | 'error';
  data: Record<string, unknown>;
  failure?: DomainError;
}

export interface TurnInput {
  content: string;
  dryRun: boolean;
  language: Language;
  signal: AbortSignal;
  /** An agent turn prepared by the caller (the step agents' JSON calls); else the conversation's agent. */
  agent?: AgentTurn;
}

export interface ConversationsDeps extends AgentDeps {
  /** Whose chat model answers: the user's own from settings, else the operator's. */
  models: UserModels;
  /** Agent turns are paid like an AI step's tokens. */
  charges: UsageCharges;
  log: Log;
}

export const toConversationOut = (row: ConversationRow): ConversationOut => ({
  id: row.id,
  title: row.title,
  agent: row.agent,
  workflow_id: row.workflow_id,
  step_id: row.step_id,
  message_count: Number(row.message_count),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export const toMessageOut = (row: MessageRow): ConversationMessageOut => ({
  id: row.id,
  role: row.role,
  content: row.content,
  parts: JSON.parse(row.parts) as MessagePart[],
  status: row.status,
  commit: row.commit_card ? publicCard(JSON.parse(row.commit_card) as StoredCommitCard) : null,
  usage: row.usage ? (JSON.parse(row.usage) as Usage) : null,
  created_at: row.created_at,
});

const titleOf = (text: string) => {
  const line = text.trim().replace(/\s+/g, ' ');
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
};

/** Conversations with the agents: the list, one with its messages, and a streamed turn (docs/agents.md). */
export class ConversationsService {
  private readonly repo: ConversationsRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: ConversationsDeps,
  ) {
    this.repo = new ConversationsRepository(db);
  }

  async list(userId: string, query: ConversationListQuery) {
    const { rows, total } = await this.repo.list(
      userId,
      { workflowId: query.workflow_id, agent: query.agent },
      query.page_size,
      (query.page - 1) * query.page_size,
    );
    return { items: rows.map(toConversationOut), total, page: query.page, page_size: query.page_size };
  }

  /** A bound workflow or step must be the caller's (404); agents that work on a workflow need one (422). */
  async create(userId: string, input: ConversationCreateIn): Promise<ConversationOut> {
    const agent: AgentKind = input.agent ?? 'general';
    let workflowId = input.workflow_id ?? null;
    if (input.step_id) {
      const stepWorkflow = await new StepsService(this.db).workflowOf(userId, input.step_id);
      if (workflowId && stepWorkflow !== workflowId) throw notFound('server.steps.notFound');
      workflowId = stepWorkflow;
    } else if (workflowId) {
      await new WorkflowsService(this.db).get(userId, workflowId);
    }
    if (agent !== 'general' && !workflowId) throw invalid('server.conversations.workflowRequired', ['body', 'workflow_id']);
    if ((agent === 'step_param' || agent === 'step_param_evaluation') && !input.step_id)
      throw invalid('server.conversations.stepRequired', ['body', 'step_id']);
    const now = new Date().toISOString();
    const row: ConversationRow = {
      id: randomUUID(),
      user_id: userId,
      title: input.title ? titleOf(input.title) : '',
      agent,
      workflow_id: workflowId,
      step_id: input.step_id ?? null,
      message_count: 0,
      created_at: now,
      updated_at: now,
    };
    await this.repo.insert(row);
    return toConversationOut(row);
  }

  async get(userId: string, id: string): Promise<ConversationDetailOut> {
    const row = await this.owned(userId, id);
    return { ...toConversationOut(row), messages: (await this.repo.messages(id)).map(toMessageOut) };
  }

  async owned(userId: string, id: string): Promise<ConversationRow> {
    const row = await this.repo.findOwned(id, userId);
    if (!row) throw notFound('server.conversations.notFound');
    return row;
  }

  async message(id: string): Promise<ConversationMessageOut> {
    return toMessageOut((await this.repo.findMessage(id))!);
  }

  /**
   * Applies a dry run's proposal exactly as it was shown, as one commit, based on the version the
   * proposal started from: if the workflow changed since, 409 (ask again) rather than overwrite.
   * The message's card then says it was applied. Applying twice is refused.
   */
  async applyProposal(userId: string, conversationId: string, messageId: string): Promise<ConversationMessageOut> {
    await this.owned(userId, conversationId);
    const row = await this.repo.findMessage(messageId);
    if (!row || row.conversation_id !== conversationId) throw notFound('server.conversations.messageNotFound');
    const card = row.commit_card ? (JSON.parse(row.commit_card) as StoredCommitCard) : null;
    if (!card?.proposal || card.applied) throw conflict('server.conversations.nothingToApply');
    const written = await editorFor(this.db).commitProposal(card.workflow_id, userId, card.proposal, {
      key: 'server.history.msg.agentEdit',
      values: { count: card.changes.length },
    });
    const applied: StoredCommitCard = { ...publicCard(card), applied: true, commit_id: written.commit?.id ?? null };
    // Only the first of two racing clicks turns the card: the other's commit would be a second copy.
    if (!(await this.repo.replaceCommitCard(messageId, row.commit_card!, JSON.stringify(applied)))) throw conflict('server.conversations.nothingToApply');
    return this.message(messageId);
  }

  /**
   * One turn: stores the user's message and the assistant's as it streams, and yields the events of
   * docs/agents.md. Whatever fails before the model's first output (an unknown conversation, no
   * model, the provider refusing) is thrown, so it is answered as an ordinary error; after that it
   * becomes an `error` event. An aborted signal (stop, the client gone) aborts the model call; what
   * came so far is kept with status `partial`.
   */
  async *turn(userId: string, conversationId: string, input: TurnInput): AsyncGenerator<TurnEvent> {
    const t = (key: string, values?: MessageValues) => translate(input.language, key, values);
    const conversation = await this.owned(userId, conversationId);
    const chat = await this.deps.models.requireChatModel(userId);
    const agent = input.agent ?? (await startAgentTurn(this.deps, conversation, userId, input.language, input.dryRun, input.signal));
    const history = historyForModel(await this.repo.messages(conversationId), input.content);

    const now = () => new Date().toISOString();
    const userMessage = await this.repo.appendMessage(
      {
        id: randomUUID(),
        conversation_id: conversationId,
        role: 'user',
        content: input.content,
        parts: JSON.stringify([{ type: 'text', text: input.content }]),
        status: 'complete',
        commit_card: null,
        usage: null,
        created_at: now(),
      },
      titleOf(input.content),
    );
    const assistant = await this.repo.appendMessage({
      id: randomUUID(),
      conversation_id: conversationId,
      role: 'assistant',
      content: '',
      parts: '[]',
      status: 'partial',
      commit_card: null,
      usage: null,
      created_at: now(),
    });

    const parts: MessagePart[] = [];
    let text = '';
    let usage: Usage | null = null;
    const save = (status: MessageStatus, card: CommitCard | null) =>
      this.repo.updateMessage(assistant.id, {
        content: text,
        parts: JSON.stringify(parts),
        status,
        commit_card: card ? JSON.stringify(card) : null,
        usage: usage ? JSON.stringify(usage) : null,
      });

    const result = streamText({
      model: chat.model,
      system: agent.system,
      messages: history.messages,
      tools: agent.tools,
      stopWhen: stepCountIs(MAX_AGENT_STEPS),
      abortSignal: input.signal,
      maxRetries: 0,
      onError: () => undefined,
    });

    let started = false;
    let failure: { detail: string; status: MessageStatus; error: DomainError } | null = null;
    const start: TurnEvent = { event: 'message_start', data: { conversation_id: conversationId, user_message_id: userMessage.id, message_id: assistant.id } };

    try {
      for await (const part of result.fullStream) {
        let event: TurnEvent | null = null;
        if (part.type === 'text-delta') {
          if (!part.text) continue;
          text += part.text;
          const last = parts.at(-1);
          if (last?.type === 'text') last.text += part.text;
          else parts.push({ type: 'text', text: part.text });
          event = { event: 'text_delta', data: { delta: part.text } };
        } else if (part.type === 'tool-call') {
          parts.push({ type: 'tool_call', id: part.toolCallId, name: part.toolName, args: part.input });
          event = { event: 'tool_call', data: { id: part.toolCallId, name: part.toolName, args: part.input } };
        } else if (part.type === 'tool-result' || part.type === 'tool-error') {
          const output = part.type === 'tool-result' ? part.output : { error: t('server.agents.toolFailed') };
          if (part.type === 'tool-error') this.deps.log.warn({ err: part.error, tool: part.toolName }, 'agent tool failed');
          const ok = !isToolError(output);
          parts.push({ type: 'tool_result', id: part.toolCallId, name: part.toolName, ok, result: output });
          event = { event: 'tool_result', data: { id: part.toolCallId, name: part.toolName, ok, result: output } };
        } else if (part.type === 'finish') {
          usage = { input_tokens: part.totalUsage.inputTokens ?? 0, output_tokens: part.totalUsage.outputTokens ?? 0 };
        } else if (part.type === 'error') {
          if (input.signal.aborted) break;
          const error = modelCallFailed(describeModelFailure(part.error));
          if (!started) {
            await save('error', null);
            throw error;
          }
          failure = { detail: t(error.messageKey, error.values), status: 'error', error };
          break;
        } else if (part.type === 'abort') {
          break;
        }
        if (!event) continue;
        if (!started) {
          started = true;
          yield start;
        }
        yield event;
      }
    } catch (err) {
      if (err instanceof DomainError && !started && !input.signal.aborted) throw err;
      if (!input.signal.aborted) {
        const error = err instanceof DomainError ? err : modelCallFailed(describeModelFailure(err));
        failure = { detail: t(error.messageKey, error.values), status: 'error', error };
      }
    }
    if (!started) yield start;

    // The turn's edits: one commit (or a proposal), also when the turn stopped early — the user saw
    // each tool's result, and one undo takes them back.
    let card: CommitCard | null = null;
    try {
      card = await agent.finish();
    } catch (err) {
      const error = err instanceof DomainError ? err : new DomainError('conflict', 'server.errors.internal');
      if (!(err instanceof DomainError)) this.deps.log.error({ err }, 'agent commit failed');
      failure ??= { detail: t(error.messageKey, error.values), status: 'error', error };
    }
    const status: MessageStatus = failure ? 'error' : input.signal.aborted ? 'partial' : 'complete';
    await save(status, card);
    // The model's tokens are paid like an AI step's (known once the model said how many it used).
    if (usage) {
      const tokens = usage.input_tokens + usage.output_tokens;
      await this.deps.charges
        .chargeAgentCall({
          userId,
          messageId: assistant.id,
          agent: conversation.agent,
          workflowId: conversation.workflow_id,
          stepId: conversation.step_id,
          tokens,
        })
        .catch((err) => this.deps.log.error({ err, messageId: assistant.id }, 'could not charge an agent turn'));
    }
    if (card) yield { event: 'commit', data: publicCard(card) };
    if (failure) {
      yield { event: 'error', data: { detail: failure.detail, status: 'error' }, failure: failure.error };
    } else if (status === 'partial') {
      yield { event: 'error', data: { detail: t('server.conversations.stopped'), status: 'partial' } };
    } else {
      yield { event: 'done', data: { message_id: assistant.id, status: 'complete', usage } };
    }
  }
}
