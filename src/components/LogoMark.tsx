import { useId } from 'react';

/** The Stepwise mark: a path stepping down through three nodes. Same drawing as public/favicon.svg. */
export function LogoMark({ size = 28 }: { size?: number }) {
  const gradientId = useId();
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#8b6cff" />
          <stop offset="1" stopColor="#4f1fd1" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
      <path d="M9 10h6v6h6v6" fill="none" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" strokeOpacity="0.75" />
      <circle cx="9" cy="10" r="2.6" fill="#fff" />
      <circle cx="15" cy="16" r="2.6" fill="#fff" />
      <circle cx="21" cy="22" r="2.6" fill="#fff" />
    </svg>
  );
}
