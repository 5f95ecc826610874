import { formatDuration, videoSource } from './videoSource';

describe('how a tutorial URL is played', () => {
  const origin = 'https://app.example.com';
  it.each([
    ['/tutorials/first-workflow.webm', { kind: 'file', src: '/tutorials/first-workflow.webm' }],
    ['https://cdn.example.org/intro.mp4', { kind: 'file', src: 'https://cdn.example.org/intro.mp4' }],
    ['https://app.example.com/media/intro', { kind: 'file', src: 'https://app.example.com/media/intro' }],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', { kind: 'embed', provider: 'youtube', src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ' }],
    ['https://youtu.be/dQw4w9WgXcQ?t=3', { kind: 'embed', provider: 'youtube', src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ' }],
    ['https://vimeo.com/76979871', { kind: 'embed', provider: 'vimeo', src: 'https://player.vimeo.com/video/76979871' }],
    ['https://example.org/some-page', { kind: 'link', href: 'https://example.org/some-page' }],
    ['javascript:alert(1)', { kind: 'unplayable' }],
    ['//evil.example/x.mp4', { kind: 'unplayable' }],
  ])('%s', (url, expected) => {
    expect(videoSource(url, origin)).toEqual(expected);
  });

  it('writes durations as a player does', () => {
    expect(formatDuration(45)).toBe('0:45');
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(3725)).toBe('1:02:05');
  });
});
