import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import { notFound, ValidationFailed, type Problem } from '../../lib/errors';
import { ADMIN, requireRole } from '../users/roles';
import type { Role } from '../users/users.schemas';
import { VideosRepository, type VideoRow } from './videos.repository';
import type { VideoAdminOut, VideoCreateIn, VideoOut, VideoPatchIn, VideosAdminQuery, VideosQuery } from './videos.schemas';

interface Admin {
  role: Role;
}

/**
 * Whether a video or thumbnail address may be shown in the app: an http(s) URL, or a path of this
 * site (`/tutorials/…`, not `//host`, which browsers read as another site). Anything else
 * (`javascript:`, `data:`, relative paths) could run or load what admins did not mean to.
 */
export function isSafeVideoUrl(url: string): boolean {
  if (/[\s\\]/.test(url)) return false;
  if (url.startsWith('/')) return !url.startsWith('//');
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

const toVideoOut = (row: VideoRow): VideoOut => ({
  id: row.id,
  title: row.title,
  description: row.description,
  url: row.url,
  thumbnail_url: row.thumbnail_url,
  duration_seconds: row.duration_seconds,
  category: row.category,
  locale: row.locale,
});

const toAdminOut = (row: VideoRow): VideoAdminOut => ({
  ...toVideoOut(row),
  status: row.status,
  position: row.position,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** Tutorial videos: anyone lists the published ones in a language; admins manage all of them. */
export class VideosService {
  private readonly videos: VideosRepository;

  constructor(db: Db) {
    this.videos = new VideosRepository(db);
  }

  async published(query: VideosQuery & { locale: 'en' | 'cn' }) {
    const { rows, total } = await this.videos.list({ category: query.category, locale: query.locale, status: 'published', ...window(query) });
    return { items: rows.map(toVideoOut), total, page: query.page, page_size: query.page_size };
  }

  async all(admin: Admin, query: VideosAdminQuery) {
    requireRole(admin, ADMIN);
    const { rows, total } = await this.videos.list({ category: query.category, locale: query.locale, status: query.status, ...window(query) });
    return { items: rows.map(toAdminOut), total, page: query.page, page_size: query.page_size };
  }

  async create(admin: Admin, input: VideoCreateIn): Promise<VideoAdminOut> {
    requireRole(admin, ADMIN);
    checkUrls(input);
    const now = new Date().toISOString();
    const row: VideoRow = {
      id: randomUUID(),
      title: input.title.trim(),
      description: input.description?.trim() ?? '',
      url: input.url,
      thumbnail_url: input.thumbnail_url ?? null,
      duration_seconds: input.duration_seconds,
      category: input.category,
      locale: input.locale,
      position: input.position ?? (await this.videos.nextPosition()),
      status: input.status ?? 'published',
      created_at: now,
      updated_at: now,
    };
    await this.videos.insert(row);
    return toAdminOut(row);
  }

  async update(admin: Admin, id: string, patch: VideoPatchIn): Promise<VideoAdminOut> {
    requireRole(admin, ADMIN);
    checkUrls(patch);
    const changed = await this.videos.update(id, {
      ...patch,
      ...(patch.title !== undefined ? { title: patch.title.trim() } : {}),
      ...(patch.description !== undefined ? { description: patch.description.trim() } : {}),
      updated_at: new Date().toISOString(),
    });
    const row = changed ? await this.videos.findById(id) : undefined;
    if (!row) throw notFound();
    return toAdminOut(row);
  }

  async delete(admin: Admin, id: string): Promise<void> {
    requireRole(admin, ADMIN);
    if (!(await this.videos.delete(id))) throw notFound();
  }
}

function checkUrls(input: { url?: string; thumbnail_url?: string | null }): void {
  const problems: Problem[] = [];
  if (input.url !== undefined && !isSafeVideoUrl(input.url)) problems.push({ key: 'server.videos.urlInvalid', loc: ['body', 'url'] });
  if (typeof input.thumbnail_url === 'string' && !isSafeVideoUrl(input.thumbnail_url))
    problems.push({ key: 'server.videos.urlInvalid', loc: ['body', 'thumbnail_url'] });
  if (problems.length > 0) throw new ValidationFailed(problems);
}

const window = (query: { page: number; page_size: number }) => ({ limit: query.page_size, offset: (query.page - 1) * query.page_size });
