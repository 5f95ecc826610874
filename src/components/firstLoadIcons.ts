import { GenIcon, type IconType } from 'react-icons';

// The few Lucide icons drawn by what every page renders (the toasts, the no-access screen, the language switcher), kept
// here rather than imported from react-icons/lu: that module holds all of Lucide as one file, and
// the bundler puts the icons of every page that the first chunk's imports share into the first
// download (about 64 kB of SVG data before compression, issue 10). Copied from react-icons 5.7.0's
// lu/index.mjs; the rest of the app imports its icons from react-icons/lu as usual.

export const LuCircleAlert: IconType = GenIcon({
  tag: 'svg',
  attr: { viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: '2', strokeLinecap: 'round', strokeLinejoin: 'round' },
  child: [
    { tag: 'circle', attr: { cx: '12', cy: '12', r: '10' }, child: [] },
    { tag: 'line', attr: { x1: '12', x2: '12', y1: '8', y2: '12' }, child: [] },
    { tag: 'line', attr: { x1: '12', x2: '12.01', y1: '16', y2: '16' }, child: [] },
  ],
});
export const LuCircleCheck: IconType = GenIcon({
  tag: 'svg',
  attr: { viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: '2', strokeLinecap: 'round', strokeLinejoin: 'round' },
  child: [
    { tag: 'circle', attr: { cx: '12', cy: '12', r: '10' }, child: [] },
    { tag: 'path', attr: { d: 'm9 12 2 2 4-4' }, child: [] },
  ],
});
export const LuTriangleAlert: IconType = GenIcon({
  tag: 'svg',
  attr: { viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: '2', strokeLinecap: 'round', strokeLinejoin: 'round' },
  child: [
    { tag: 'path', attr: { d: 'm21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3' }, child: [] },
    { tag: 'path', attr: { d: 'M12 9v4' }, child: [] },
    { tag: 'path', attr: { d: 'M12 17h.01' }, child: [] },
  ],
});
export const LuInfo: IconType = GenIcon({
  tag: 'svg',
  attr: { viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: '2', strokeLinecap: 'round', strokeLinejoin: 'round' },
  child: [
    { tag: 'circle', attr: { cx: '12', cy: '12', r: '10' }, child: [] },
    { tag: 'path', attr: { d: 'M12 16v-4' }, child: [] },
    { tag: 'path', attr: { d: 'M12 8h.01' }, child: [] },
  ],
});
export const LuShieldOff: IconType = GenIcon({
  tag: 'svg',
  attr: { viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: '2', strokeLinecap: 'round', strokeLinejoin: 'round' },
  child: [
    { tag: 'path', attr: { d: 'm2 2 20 20' }, child: [] },
    { tag: 'path', attr: { d: 'M5 5a1 1 0 0 0-1 1v7c0 5 3.5 7.5 7.67 8.94a1 1 0 0 0 .67.01c2.35-.82 4.48-1.97 5.9-3.71' }, child: [] },
    {
      tag: 'path',
      attr: { d: 'M9.309 3.652A12.252 12.252 0 0 0 11.24 2.28a1.17 1.17 0 0 1 1.52 0C14.51 3.81 17 5 19 5a1 1 0 0 1 1 1v7a9.784 9.784 0 0 1-.08 1.264' },
      child: [],
    },
  ],
});
export const LuLanguages: IconType = GenIcon({
  tag: 'svg',
  attr: { viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: '2', strokeLinecap: 'round', strokeLinejoin: 'round' },
  child: [
    { tag: 'path', attr: { d: 'm5 8 6 6' }, child: [] },
    { tag: 'path', attr: { d: 'm4 14 6-6 2-3' }, child: [] },
    { tag: 'path', attr: { d: 'M2 5h12' }, child: [] },
    { tag: 'path', attr: { d: 'M7 2h1' }, child: [] },
    { tag: 'path', attr: { d: 'm22 22-5-10-5 10' }, child: [] },
    { tag: 'path', attr: { d: 'M14 18h6' }, child: [] },
  ],
});
