import { sendJson } from '../http-rpc/http-replies.js';
import { identityDocument } from './identity-document.js';
import { jsonContent, type Route } from './route.js';
import type { House } from '../verbs/house.js';

/** The data-free routes and the public identity description (docs/protocol.md#routes). */
export function plainRoutes(house: Pick<House, 'deployment' | 'config'>): Route[] {
  return [
    {
      method: 'GET',
      path: '/',
      guard: 'none',
      summary: 'Redirects to the console at /app (no query forwarded).',
      doc: () => ({ responses: { 302: { description: 'Location /app, no body' } } }),
      handler: ({ res }) => {
        res.writeHead(302, { location: '/app', 'content-length': 0 });
        res.end();
      },
    },
    {
      method: 'GET',
      path: '/identity',
      guard: 'none',
      cors: 'plain',
      summary: 'Who this gate is: deployment id, role, how people sign in; gates is always empty.',
      doc: () => ({
        responses: {
          200: {
            description: 'the identity document',
            content: jsonContent({
              type: 'object',
              properties: {
                deployment_id: { type: 'string' },
                role: { type: 'string' },
                auth: { type: 'object' },
                gates: { type: 'array', maxItems: 0 },
              },
              required: ['deployment_id', 'role', 'auth', 'gates'],
            }),
          },
        },
      }),
      handler: ({ res }) => sendJson(res, 200, identityDocument(house)),
    },
  ];
}
