import { ApiError } from './http';

/** What a screen says when a read or a write failed: the server's Spanish message, or a general one. */
export const failureText = (err: unknown) =>
  err instanceof ApiError ? err.userMessage : 'No pudimos completar la operación.';
