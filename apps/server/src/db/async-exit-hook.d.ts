// The part of async-exit-hook's API we use (it ships no types).
declare module 'async-exit-hook' {
  const hook: { hookedEvents(): string[]; unhookEvent(event: string): void };
  export default hook;
}
