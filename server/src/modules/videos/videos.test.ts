import { SEED_VIDEOS } from '../../db/migrations/seed-videos';
import { createTestApp, signedInUser, type TestApp } from '../../test/test-app';
import { setUserRole } from '../users/set-role';
import { isSafeVideoUrl } from './videos.service';

let t: TestApp;
type Auth = { authorization: string };
let admin: Auth;
let user: Auth;
let support: Auth;

beforeAll(async () => {
  t = await createTestApp();
  const roles = async (role: 'user' | 'support' | 'admin') => {
    const who = await signedInUser(t.app);
    await setUserRole(t.app.db, who.account.email, role);
    return who.auth;
  };
  [admin, user, support] = [await roles('admin'), await roles('user'), await roles('support')];
});
afterAll(() => t.close());

const videos = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers?: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/videos${url}`, headers, payload });

const newVideo = (overrides: object = {}) => ({
  title: 'Agents in depth',
  description: 'How the step agent edits a workflow.',
  url: 'https://videos.example.com/agents.mp4',
  thumbnail_url: '/tutorials/agents.jpg',
  duration_seconds: 300,
  category: 'agents',
  locale: 'en',
  ...overrides,
});

describe('videos', () => {
  it('GET /videos/ is public: the seeded videos in the caller’s language, published only, in order, paged', async () => {
    const seededEn = SEED_VIDEOS.filter((v) => v.locale === 'en');
    const res = await videos('GET', '/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: seededEn.length, page: 1, page_size: 20 });
    expect(body.items.map((v: { id: string }) => v.id)).toEqual(seededEn.map((v) => v.id));
    expect(Object.keys(body.items[0]).sort()).toEqual(['category', 'description', 'duration_seconds', 'id', 'locale', 'thumbnail_url', 'title', 'url']);

    const chinese = (await videos('GET', '/', { 'accept-language': 'zh-CN,zh;q=0.9' })).json();
    expect(chinese.items.length).toBeGreaterThan(0);
    expect(chinese.items.every((v: { locale: string }) => v.locale === 'cn')).toBe(true);
    // An explicit locale wins over the header.
    const asked = (await videos('GET', '/?locale=en', { 'accept-language': 'zh-CN' })).json();
    expect(asked.items.every((v: { locale: string }) => v.locale === 'en')).toBe(true);

    const pageTwo = (await videos('GET', '/?page=2&page_size=1')).json();
    expect(pageTwo).toMatchObject({ page: 2, page_size: 1, total: seededEn.length });
    expect(pageTwo.items.map((v: { id: string }) => v.id)).toEqual([seededEn[1].id]);

    const category = seededEn[0].category;
    const byCategory = (await videos('GET', `/?category=${category}`)).json();
    expect(byCategory.items.map((v: { id: string }) => v.id)).toEqual(seededEn.filter((v) => v.category === category).map((v) => v.id));
  });

  it('admins add, change, hide and delete videos; hidden ones leave the public list', async () => {
    const created = await videos('POST', '/admin', admin, newVideo({ locale: 'cn', position: 0 }));
    expect(created.statusCode).toBe(201);
    const video = created.json();
    expect(video).toMatchObject({ title: 'Agents in depth', status: 'published', position: 0, locale: 'cn', message: 'Video added.' });

    const listCn = async () => (await videos('GET', '/?locale=cn&page_size=100')).json().items.map((v: { id: string }) => v.id);
    expect((await listCn())[0]).toBe(video.id);

    const hidden = await videos('PATCH', `/admin/${video.id}`, admin, { status: 'hidden', title: '  Agents, revised  ' });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json()).toMatchObject({ status: 'hidden', title: 'Agents, revised' });
    expect(await listCn()).not.toContain(video.id);
    const all = (await videos('GET', '/admin/all?status=hidden', admin)).json();
    expect(all.items.map((v: { id: string }) => v.id)).toEqual([video.id]);
    expect(all.items[0]).toMatchObject({ status: 'hidden', position: 0 });

    expect((await videos('DELETE', `/admin/${video.id}`, admin)).json()).toEqual({ message: 'Video deleted.' });
    expect((await videos('DELETE', `/admin/${video.id}`, admin)).statusCode).toBe(404);
    expect((await videos('PATCH', `/admin/${video.id}`, admin, { title: 'Gone' })).statusCode).toBe(404);
  });

  it('a video without a position goes to the end of the list', async () => {
    const video = (await videos('POST', '/admin', admin, newVideo({ title: 'Last one' }))).json();
    const en = (await videos('GET', '/?locale=en&page_size=100')).json().items;
    expect(en[en.length - 1].id).toBe(video.id);
    await videos('DELETE', `/admin/${video.id}`, admin);
  });

  it('roles: admin calls answer 401 without a token, 403 to users and support', async () => {
    const calls: ['GET' | 'POST' | 'PATCH' | 'DELETE', string, object | undefined][] = [
      ['GET', '/admin/all', undefined],
      ['POST', '/admin', newVideo()],
      ['PATCH', `/admin/${SEED_VIDEOS[0].id}`, { title: 'Hijacked' }],
      ['DELETE', `/admin/${SEED_VIDEOS[0].id}`, undefined],
    ];
    for (const [method, url, body] of calls) {
      const statuses = [
        (await videos(method, url, undefined, body)).statusCode,
        (await videos(method, url, user, body)).statusCode,
        (await videos(method, url, support, body)).statusCode,
      ];
      expect([method, url, statuses]).toEqual([method, url, [401, 403, 403]]);
    }
    expect((await videos('GET', '/admin/all', admin)).statusCode).toBe(200);
    const seeded = (await videos('GET', '/?page_size=100')).json().items.find((v: { id: string }) => v.id === SEED_VIDEOS[0].id);
    expect(seeded.title).toBe(SEED_VIDEOS[0].title);
  });

  it('refuses unsafe addresses and out-of-bounds fields with 422 at the field', async () => {
    const cases: [object, string][] = [
      [{ url: 'javascript:alert(1)' }, 'url'],
      [{ url: 'JavaScript:alert(1)' }, 'url'],
      [{ url: 'data:text/html,<script>' }, 'url'],
      [{ url: '//evil.example/x.mp4' }, 'url'],
      [{ url: 'videos/x.mp4' }, 'url'],
      [{ url: `https://example.com/${'x'.repeat(2000)}` }, 'url'],
      [{ thumbnail_url: 'javascript:alert(1)' }, 'thumbnail_url'],
      [{ title: '' }, 'title'],
      [{ title: 't'.repeat(201) }, 'title'],
      [{ description: 'd'.repeat(2001) }, 'description'],
      [{ duration_seconds: -1 }, 'duration_seconds'],
      [{ duration_seconds: 1.5 }, 'duration_seconds'],
      [{ category: 'cats' }, 'category'],
      [{ locale: 'fr' }, 'locale'],
      [{ position: 100_001 }, 'position'],
    ];
    for (const [override, field] of cases) {
      const res = await videos('POST', '/admin', admin, newVideo(override));
      expect([field, res.statusCode]).toEqual([field, 422]);
      expect(res.json().errors.map((e: { loc: string[] }) => e.loc)).toContainEqual(['body', field]);
    }
    const patch = await videos('PATCH', `/admin/${SEED_VIDEOS[0].id}`, admin, { url: 'javascript:alert(1)' });
    expect(patch.statusCode).toBe(422);
    expect(patch.json().errors[0]).toEqual({ msg: 'Must be an http(s) address or a path starting with / on this site.', loc: ['body', 'url'] });
    expect((await videos('PATCH', `/admin/${SEED_VIDEOS[0].id}`, admin, {})).statusCode).toBe(422);
    expect((await videos('GET', '/?locale=fr')).statusCode).toBe(422);
    expect((await videos('GET', '/?page_size=101')).statusCode).toBe(422);
  });

  it('isSafeVideoUrl: http(s) and site paths only', () => {
    expect(isSafeVideoUrl('https://example.com/a.mp4')).toBe(true);
    expect(isSafeVideoUrl('http://example.com/a.mp4')).toBe(true);
    expect(isSafeVideoUrl('/tutorials/a.webm')).toBe(true);
    for (const bad of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'ftp://example.com/a',
      '//example.com/a',
      '/\\example.com',
      'https://',
      'a.mp4',
      'https://exa mple.com',
    ]) {
      expect([bad, isSafeVideoUrl(bad)]).toEqual([bad, false]);
    }
  });
});
