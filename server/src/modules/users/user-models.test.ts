import { generateText } from 'ai';
import { describeModelFailure } from '../../ai';
import { startLlmServer, type LlmServer } from '../../test/llm-server';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { UserModels } from './user-models';

const SETTINGS = '/api/v1/users/me/settings';

describe("a user's own chat model (settings)", () => {
  let llm: LlmServer;
  let t: TestApp;
  beforeAll(async () => {
    llm = await startLlmServer({ apiKey: 'sk-user' });
    // The operator's model is the stand-in too, under another name, so the two can be told apart.
    t = await createTestApp({ LLM_BASE_URL: llm.url, LLM_MODEL: 'operator-model' });
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  const models = (allowPrivate: boolean) => new UserModels(t.app.db, t.app.secrets, { llm: t.config.llm, httpSteps: { ...t.config.httpSteps, allowPrivate } });

  it('keeps the key sealed: settings say only that one is kept, and sending none keeps it', async () => {
    const { auth, user } = await signedInUser(t.app);
    const set = await t.app.inject({
      method: 'PATCH',
      url: SETTINGS,
      headers: auth,
      payload: { ai_model: { base_url: `${llm.url}/`, model: 'my-model', api_key: 'sk-user' } },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().ai_model).toEqual({ base_url: llm.url, model: 'my-model', provider: 'openai-compatible', has_api_key: true });
    expect(set.body).not.toContain('sk-user');
    const row = await t.app.db.selectFrom('users').select(['ai_api_key_sealed']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.ai_api_key_sealed).toMatch(/^v1:/);
    expect(row.ai_api_key_sealed).not.toContain('sk-user');

    await t.app.inject({ method: 'PATCH', url: SETTINGS, headers: auth, payload: { ai_model: { base_url: llm.url, model: 'renamed' } } });
    const got = (await t.app.inject({ url: SETTINGS, headers: auth })).json();
    expect(got.ai_model).toMatchObject({ model: 'renamed', has_api_key: true });

    const chat = await models(true).requireChatModel(user.id);
    expect(chat.id).toContain('renamed');
    const { text } = await generateText({ model: chat.model, prompt: 'whose model?' });
    expect(text).toBe('Echo: whose model?');
    expect(llm.requests.at(-1)).toMatchObject({ model: 'renamed', authorization: 'Bearer sk-user' });

    const cleared = await t.app.inject({ method: 'PATCH', url: SETTINGS, headers: auth, payload: { ai_model: null } });
    expect(cleared.json().ai_model).toBeNull();
    expect((await models(true).requireChatModel(user.id)).id).toContain('operator-model');
  });

  it("reaches a user's model address only through the HTTP steps' address policy", async () => {
    const { auth, user } = await signedInUser(t.app);
    await t.app.inject({ method: 'PATCH', url: SETTINGS, headers: auth, payload: { ai_model: { base_url: llm.url, model: 'm', api_key: 'sk-user' } } });
    const before = llm.requests.length;
    const refused = await generateText({ model: (await models(false).requireChatModel(user.id)).model, prompt: 'x', maxRetries: 0 }).catch(
      (err: unknown) => err,
    );
    expect(describeModelFailure(refused).kind).toBe('unavailable');
    expect(String((refused as { cause?: { message?: string } }).cause?.message ?? refused)).toMatch(/blocked|refused|not allowed/i);
    expect(llm.requests.length).toBe(before);
  });

  it('refuses a malformed address or model at its field, and answers without a model when neither is set', async () => {
    const { auth } = await signedInUser(t.app);
    const bad = await t.app.inject({ method: 'PATCH', url: SETTINGS, headers: auth, payload: { ai_model: { base_url: 'ftp://example.com', model: 'm' } } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0].loc).toEqual(['body', 'ai_model', 'base_url']);
    const creds = await t.app.inject({
      method: 'PATCH',
      url: SETTINGS,
      headers: auth,
      payload: { ai_model: { base_url: 'https://user:pw@example.com/v1', model: 'm' } },
    });
    expect(creds.statusCode).toBe(422);
    const blank = await t.app.inject({ method: 'PATCH', url: SETTINGS, headers: auth, payload: { ai_model: { base_url: null, model: '   ' } } });
    expect(blank.statusCode).toBe(422);
    const extra = await t.app.inject({ method: 'PATCH', url: SETTINGS, headers: auth, payload: { ai_model: { base_url: null, model: 'm', secret: 1 } } });
    expect(extra.statusCode).toBe(422);

    const bare = await createTestApp();
    try {
      const { user } = await signedInUser(bare.app);
      const none = new UserModels(bare.app.db, bare.app.secrets, bare.config);
      expect(await none.chatModel(user.id)).toBeNull();
      await expect(none.requireChatModel(user.id)).rejects.toMatchObject({ name: 'NoModelConfigured' });
    } finally {
      await bare.close();
    }
  });
});
