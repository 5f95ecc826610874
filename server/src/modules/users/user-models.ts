import { chatModelFor, NoModelConfigured, type ChatModel, type ModelSettings } from '../../ai';
import type { Config } from '../../config/config';
import type { Db } from '../../db/database';
import { AddressPolicy, createGuardedFetch } from '../../engine/outbound-http';
import type { SecretBox } from '../../lib/secret-box';
import { UsersRepository } from './users.repository';

/**
 * Which chat model serves a user: their own (settings) when they set one, else the operator's
 * (LLM_*). A model address a user typed in is reached only through the HTTP steps' address policy
 * (no private, loopback or metadata addresses unless the operator allows them): otherwise a
 * setting would let anyone make the server call its own network. The operator's is trusted as is
 * (a local Ollama is the usual case).
 */
export class UserModels {
  private readonly users: UsersRepository;
  private readonly guardedFetch: typeof fetch;

  constructor(
    db: Db,
    private readonly secrets: SecretBox,
    private readonly config: Pick<Config, 'llm' | 'httpSteps'>,
  ) {
    this.users = new UsersRepository(db);
    this.guardedFetch = createGuardedFetch({ policy: new AddressPolicy(config.httpSteps) });
  }

  async settingsFor(userId: string): Promise<ModelSettings> {
    const user = await this.users.findById(userId);
    if (user?.ai_model) {
      return {
        baseUrl: user.ai_base_url,
        model: user.ai_model,
        provider: user.ai_provider ?? 'openai-compatible',
        apiKey: user.ai_api_key_sealed ? this.secrets.open(user.ai_api_key_sealed) : null,
        fetch: this.guardedFetch,
      };
    }
    const { baseUrl, apiKey, model, provider } = this.config.llm;
    return { baseUrl, apiKey, model, provider };
  }

  /** The user's chat model, or null when neither they nor the operator configured one. */
  async chatModel(userId: string): Promise<ChatModel | null> {
    return chatModelFor(await this.settingsFor(userId));
  }

  /** The user's chat model, or NoModelConfigured (409 with a modal saying how to connect one). */
  async requireChatModel(userId: string): Promise<ChatModel> {
    const chat = await this.chatModel(userId);
    if (!chat) throw new NoModelConfigured();
    return chat;
  }
}
