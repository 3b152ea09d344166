/**
 * What the request log may say about a URL (issue 23, hole 7): URLs carry bearer secrets (a guest's
 * order link, reset and verification tokens, the Google return's code and state), and a log line is
 * read by more people, for longer, than the request. Their values become `[redacted]`; the rest stays.
 */

/** Query parameters whose value is a credential, compared decoded and lower-cased. */
const SECRET_PARAMS = new Set([
  'token',
  'code',
  'state',
  'pedido',
  'access_token',
  'id_token',
  'refresh_token',
  'key',
  'secret',
  'signature',
  'password',
]);

/** Paths whose next segment is a credential, compared segment by segment, decoded and lower-cased. */
const SECRET_PATHS: readonly (readonly string[])[] = [['api', 'orders', 'link']];

export const REDACTED = '[redacted]';

const decoded = (raw: string): string => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
};

function redactPath(path: string): string {
  const raw = path.split('/');
  const seen = raw.map(decoded);
  for (const prefix of SECRET_PATHS) {
    for (let i = 0; i + prefix.length < raw.length; i++) {
      if (prefix.every((p, k) => seen[i + k] === p) && raw[i + prefix.length] !== '') {
        raw[i + prefix.length] = REDACTED;
      }
    }
  }
  return raw.join('/');
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return eq !== -1 && SECRET_PARAMS.has(decoded(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/** The URL as the log may show it: path and query with every secret value replaced. */
export function redactUrl(url: string): string {
  // Bounded: a URL is at most the router's limit, and this walks it once per known prefix.
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return q === -1 ? redactPath(path) : `${redactPath(path)}?${redactQuery(url.slice(q + 1))}`;
}

/** The request serializer of the log (Fastify's fields), with the URL redacted. */
export function serializeRequest(req: {
  method: string;
  url: string;
  headers?: Record<string, string | string[] | undefined>;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: typeof req.headers?.['accept-version'] === 'string' ? req.headers['accept-version'] : undefined,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
