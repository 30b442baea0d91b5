// Links to this gateway's own files (the single-machine object store's signed `/api/files/...` URLs: export
// downloads and reports, media, thumbnails, upload targets, logos) are made by the services with the deployment's
// PUBLIC_URL, which defaults to http://localhost:<port>. Someone who reached the gateway as http://10.0.0.5:8080 or
// https://survey.example.org must get links to that host, so every JSON answer's file links are rewritten here to
// the request's own origin: its protocol and Host (X-Forwarded-Proto and X-Forwarded-Host only from TRUSTED_PROXIES,
// as Fastify's trustProxy decides). Links to another store (S3 presigned URLs) are left alone, and so are links in
// mails, which never use a request's Host (a forged Host must not reach someone else's inbox: PUBLIC_URL is used).
import type { FastifyRequest } from 'fastify';

/** A host as a Host header may carry it: a name or IPv4 address, or a bracketed IPv6 address, and a port. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** The origin the caller reached, or undefined when its host is not a plain host name (then links stay as made). */
export function requestOrigin(request: FastifyRequest): string | undefined {
  const host = request.host;
  const protocol = request.protocol;
  if (typeof host !== 'string' || !HOST.test(host) || (protocol !== 'http' && protocol !== 'https')) return undefined;
  return `${protocol}://${host}`;
}

const FILE_LINK = /"https?:\/\/[^"/\\\s]+\/api\/files\//g;

/** A JSON text with every file link of this gateway pointing at `origin`. */
export function relinkFiles(json: string, origin: string): string {
  if (!json.includes('/api/files/')) return json;
  return json.replace(FILE_LINK, `"${origin}/api/files/`);
}
