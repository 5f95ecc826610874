// How a tutorial's URL is played: a video file in the page's own <video> player, a YouTube or
// Vimeo page in the provider's embedded player (their pages cannot be played as files), and
// anything else on the web only as a link (an unknown site's page would play in neither).

export type VideoSource =
  { kind: 'file'; src: string } | { kind: 'embed'; src: string; provider: 'youtube' | 'vimeo' } | { kind: 'link'; href: string } | { kind: 'unplayable' };

const FILE_EXTENSION = /\.(webm|mp4|m4v|ogv|ogg|mov)$/i;
const YOUTUBE_ID = /^[\w-]{6,20}$/;

function youtubeId(url: URL): string | null {
  const host = url.hostname.replace(/^www\.|^m\./, '');
  if (host === 'youtu.be') return url.pathname.slice(1).split('/')[0] || null;
  if (host !== 'youtube.com' && host !== 'youtube-nocookie.com') return null;
  if (url.pathname === '/watch') return url.searchParams.get('v');
  const match = /^\/(?:embed|shorts|live)\/([^/]+)/.exec(url.pathname);
  return match ? match[1] : null;
}

function vimeoId(url: URL): string | null {
  const host = url.hostname.replace(/^www\./, '');
  if (host === 'vimeo.com') return /^\/(\d+)/.exec(url.pathname)?.[1] ?? null;
  if (host === 'player.vimeo.com') return /^\/video\/(\d+)/.exec(url.pathname)?.[1] ?? null;
  return null;
}

export function videoSource(raw: string, origin = window.location.origin): VideoSource {
  // A path on this site (the seeded recordings under /tutorials/) is ours to play.
  if (raw.startsWith('/') && !raw.startsWith('//')) return { kind: 'file', src: raw };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { kind: 'unplayable' };
  }
  // javascript:, data: and the like are never followed, whatever an admin typed.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { kind: 'unplayable' };
  const youtube = youtubeId(url);
  if (youtube && YOUTUBE_ID.test(youtube)) return { kind: 'embed', provider: 'youtube', src: `https://www.youtube-nocookie.com/embed/${youtube}` };
  const vimeo = vimeoId(url);
  if (vimeo) return { kind: 'embed', provider: 'vimeo', src: `https://player.vimeo.com/video/${vimeo}` };
  if (url.origin === origin || FILE_EXTENSION.test(url.pathname)) return { kind: 'file', src: url.href };
  return { kind: 'link', href: url.href };
}

/** 75 → "1:15", 3725 → "1:02:05". */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
