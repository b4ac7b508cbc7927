/** The portal's mark, the same as index.html's splash. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#1d4ed8" />
      <path
        d="M18 44V20h6v24zm12 0V20h9a9 9 0 0 1 0 18h-3v6zm6-12h3a3 3 0 0 0 0-6h-3z"
        fill="#fff"
      />
    </svg>
  );
}
