import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';

// Records a journey as a tutorial video: Chromium's own screencast (DevTools protocol) hands us a
// frame each time the page paints, with its timestamp; ffmpeg turns the frames, each held until
// the next one, into a WebM (VP9) and takes a thumbnail. Playwright's recordVideo needs an ffmpeg
// it downloads from outside the registries; Debian's ffmpeg does the same job here.

interface Frame {
  file: string;
  at: number;
}

const CAPTION_KEY = 'stepwise-tutorial-caption';

/** A caption bar at the bottom of every page of the tutorial, kept across page loads. */
function captionScript(key: string): void {
  const show = () => {
    const text = sessionStorage.getItem(key);
    let bar = document.getElementById(key);
    if (!text) {
      bar?.remove();
      return;
    }
    if (!bar) {
      bar = document.createElement('div');
      bar.id = key;
      bar.setAttribute('aria-hidden', 'true');
      Object.assign(bar.style, {
        position: 'fixed',
        left: '50%',
        bottom: '28px',
        transform: 'translateX(-50%)',
        zIndex: '100000',
        maxWidth: '80%',
        padding: '10px 18px',
        borderRadius: '10px',
        background: 'rgba(17, 24, 39, 0.88)',
        color: '#fff',
        font: '600 20px/1.4 system-ui, "Noto Sans CJK SC", sans-serif',
        pointerEvents: 'none',
        textAlign: 'center',
      });
      document.body.appendChild(bar);
    }
    bar.textContent = text;
  };
  (window as unknown as { __showCaption: () => void }).__showCaption = show;
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show);
  else show();
}

export interface Recording {
  /** Shows a caption and leaves the viewer time to read it. */
  caption(text: string, holdMs?: number): Promise<void>;
  /** Stops, encodes `<dir>/<name>.webm` and `<dir>/<name>.jpg`; answers the video's length in seconds. */
  save(dir: string, name: string): Promise<number>;
}

export async function startRecording(page: Page): Promise<Recording> {
  await page.addInitScript(captionScript, CAPTION_KEY);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-tutorial-'));
  const frames: Frame[] = [];
  const cdp: CDPSession = await page.context().newCDPSession(page);
  cdp.on('Page.screencastFrame', (event: { data: string; sessionId: number; metadata: { timestamp?: number } }) => {
    const file = path.join(work, `f${String(frames.length).padStart(6, '0')}.jpg`);
    fs.writeFileSync(file, Buffer.from(event.data, 'base64'));
    frames.push({ file, at: event.metadata.timestamp ?? Date.now() / 1000 });
    void cdp.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => undefined);
  });
  await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 85, everyNthFrame: 1 });

  return {
    async caption(text, holdMs = 2200) {
      await page.evaluate(
        ([key, value]) => {
          sessionStorage.setItem(key, value);
          (window as unknown as { __showCaption?: () => void }).__showCaption?.();
        },
        [CAPTION_KEY, text] as const,
      );
      await page.waitForTimeout(holdMs);
    },
    async save(dir, name) {
      await page.waitForTimeout(1200);
      await cdp.send('Page.stopScreencast');
      await cdp.detach().catch(() => undefined);
      if (frames.length < 2) throw new Error('The screencast sent fewer than two frames');
      // Each frame lasts until the next one; the last is held for a moment.
      const lines: string[] = [];
      for (let i = 0; i < frames.length; i++) {
        const duration = i + 1 < frames.length ? Math.max(0.001, frames[i + 1].at - frames[i].at) : 1.5;
        lines.push(`file '${frames[i].file}'`, `duration ${duration.toFixed(3)}`);
      }
      lines.push(`file '${frames[frames.length - 1].file}'`);
      const list = path.join(work, 'frames.txt');
      fs.writeFileSync(list, `${lines.join('\n')}\n`);
      fs.mkdirSync(dir, { recursive: true });
      const video = path.join(dir, `${name}.webm`);
      execFileSync('ffmpeg', [
        '-y',
        '-loglevel',
        'error',
        '-f',
        'concat',
        '-safe',
        '0',
        '-i',
        list,
        '-vf',
        'fps=15,scale=1280:-2,format=yuv420p',
        '-c:v',
        'libvpx-vp9',
        '-b:v',
        '0',
        '-crf',
        '42',
        '-row-mt',
        '1',
        '-deadline',
        'good',
        '-cpu-used',
        '4',
        video,
      ]);
      const seconds = Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', video]).toString().trim());
      execFileSync('ffmpeg', [
        '-y',
        '-loglevel',
        'error',
        '-ss',
        String(Math.max(0, seconds * 0.6)),
        '-i',
        video,
        '-frames:v',
        '1',
        '-vf',
        'scale=640:-2',
        '-q:v',
        '4',
        path.join(dir, `${name}.jpg`),
      ]);
      fs.rmSync(work, { recursive: true, force: true });
      return Math.round(seconds);
    },
  };
}
