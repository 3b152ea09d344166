/** A byte count as an operator would write it: 1 MB, 256 KB, or bytes when neither is whole. */
export function formatBytes(n: number): string {
  if (n >= 1_048_576 && n % 1_048_576 === 0) return `${n / 1_048_576} MB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KB`;
  return `${n} bytes`;
}
