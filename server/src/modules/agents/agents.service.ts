import type { Db } from '../../db/database';
import type { AgentKind } from '../../db/schema';
import { translate, type Language } from '../../i18n/messages';
import { notFound } from '../../lib/errors';
import type { CommitCard } from '../conversations/conversations.schemas';
import { ConversationsService, type ConversationsDeps } from '../conversations/conversations.service';
import { WorkflowsService } from '../workflows/workflows.service';
import type { AgentTurn } from './agent-runtime';
import type { CoordinatorOut, EvaluationIn, StepParamIn } from './agents.schemas';
import { evaluationTurn, stepParamTurn } from './step-agents';

/** The agents' JSON calls: the same turn as a conversation's stream, answered whole. */
export class AgentsService {
  private readonly conversations: ConversationsService;

  constructor(
    private readonly db: Db,
    private readonly deps: ConversationsDeps,
  ) {
    this.conversations = new ConversationsService(db, deps);
  }

  /**
   * A coordinator turn on the caller's workflow, in the given conversation (which must be the
   * caller's coordinator conversation of that workflow) or a new one. A provider failure is thrown
   * (502) after the partial answer is stored.
   */
  async coordinator(
    userId: string,
    workflowId: string,
    input: { message: string; conversation_id?: string },
    dryRun: boolean,
    language: Language,
    signal: AbortSignal,
  ): Promise<CoordinatorOut> {
    await new WorkflowsService(this.db).get(userId, workflowId);
    const conversationId = await this.conversationFor(userId, 'coordinator', workflowId, input.conversation_id);
    let messageId: string | null = null;
    let commit: CommitCard | null = null;
    for await (const event of this.conversations.turn(userId, conversationId, { content: input.message, dryRun, language, signal })) {
      if (event.event === 'message_start') messageId = event.data.message_id as string;
      if (event.event === 'commit') commit = event.data as unknown as CommitCard;
      if (event.event === 'error' && event.failure) throw event.failure;
    }
    return { conversation_id: conversationId, message: await this.conversations.message(messageId!), commit };
  }

  /** Fills one step's params from the request (saved as one commit unless apply=false) and previews them. */
  async stepParam(userId: string, workflowId: string, stepId: string, input: StepParamIn, language: Language, signal: AbortSignal) {
    await this.deps.models.requireChatModel(userId);
    const agent = await stepParamTurn(this.deps, userId, workflowId, stepId, language, input.apply ?? true, signal);
    const conversationId = await this.conversationFor(userId, 'step_param', workflowId, input.conversation_id, stepId);
    const { messageId } = await this.run(userId, conversationId, input.message, language, signal, agent);
    return { conversation_id: conversationId, message: await this.conversations.message(messageId), ...agent.outcome() };
  }

  /** Runs the step on a few sample records, lists the problems, and has the model explain them. */
  async evaluate(userId: string, workflowId: string, stepId: string, input: EvaluationIn, language: Language, signal: AbortSignal) {
    // Checked before the sample run, which costs a run.
    await this.deps.models.requireChatModel(userId);
    const agent = await evaluationTurn(this.deps, userId, workflowId, stepId, language, input.sample_size ?? 5, signal);
    const conversationId = await this.conversationFor(userId, 'step_param_evaluation', workflowId, input.conversation_id, stepId);
    const { messageId } = await this.run(userId, conversationId, input.message ?? translate(language, 'server.agents.eval.request'), language, signal, agent);
    return { conversation_id: conversationId, message: await this.conversations.message(messageId), problems: agent.problems, preview: agent.preview };
  }

  private async run(userId: string, conversationId: string, content: string, language: Language, signal: AbortSignal, agent: AgentTurn) {
    let messageId: string | null = null;
    let commit: CommitCard | null = null;
    for await (const event of this.conversations.turn(userId, conversationId, { content, dryRun: false, language, signal, agent })) {
      if (event.event === 'message_start') messageId = event.data.message_id as string;
      if (event.event === 'commit') commit = event.data as unknown as CommitCard;
      if (event.event === 'error' && event.failure) throw event.failure;
    }
    return { messageId: messageId!, commit };
  }

  private async conversationFor(userId: string, agent: AgentKind, workflowId: string, conversationId: string | undefined, stepId?: string): Promise<string> {
    if (conversationId) {
      const row = await this.conversations.owned(userId, conversationId);
      if (row.agent !== agent || row.workflow_id !== workflowId || (stepId && row.step_id !== stepId)) throw notFound('server.conversations.notFound');
      return row.id;
    }
    return (await this.conversations.create(userId, { agent, workflow_id: workflowId, step_id: stepId })).id;
  }
}
