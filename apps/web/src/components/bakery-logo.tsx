import { useEffect, useRef, useState } from 'react';

/**
 * A bakery's logo (a stored file's URL), its name as the alt text. A picture that cannot load (a driver's
 * phone without signal, a file gone) shows `fallback` instead of a broken image; one that failed before the
 * page hydrated is caught too (React never saw its error event).
 */
export function BakeryLogo({
  src,
  name,
  className,
  size,
  fallback = null,
}: {
  src: string;
  name: string;
  className?: string;
  /** The width and height attributes (the space kept before the picture loads). */
  size?: number;
  fallback?: React.ReactNode;
}) {
  const ref = useRef<HTMLImageElement>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    const img = ref.current;
    if (img?.complete && img.naturalWidth === 0) setFailed(src);
  }, [src]);
  if (failed === src) return <>{fallback}</>;
  return (
    <img
      ref={ref}
      src={src}
      alt={name}
      width={size}
      height={size}
      className={className}
      onError={() => setFailed(src)}
    />
  );
}
