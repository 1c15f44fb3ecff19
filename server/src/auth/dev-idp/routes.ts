import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InteractionResults } from 'oidc-provider';
import { developmentIssuerPath } from '../../config.js';
import { renderDevelopmentLoginPage, renderExpiredStepPage } from './login-page.js';
import type { createDevelopmentProvider } from './provider.js';

type DevelopmentProvider = ReturnType<typeof createDevelopmentProvider>;
type InteractionForm = { email?: string; subject?: string; verified?: string; workspace?: string; action?: string };

/** What an account id typed into the form may be: short and plain, as providers' `sub` values are. */
const accountIdPattern = /^[A-Za-z0-9._-]{1,64}$/;

/** A browser's navigation (Back included) asks for HTML; an API client for JSON. */
const acceptsHtml = (request: FastifyRequest) => /\btext\/html\b/.test(request.headers.accept ?? '');

/** Mounts the development provider under /dev-idp: our sign-in form, then oidc-provider for everything else. */
export async function developmentProviderRoutes(
  app: FastifyInstance,
  options: { idp: DevelopmentProvider; publicUrl: URL },
) {
  const { rememberAccount } = options.idp;

  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');
  const interactionPath = (uid: string) => `${developmentIssuerPath}/interaction/${encodeURIComponent(uid)}`;

  /**
   * Whether the form's interaction is still under way. One that is over (oidc-provider's SessionNotFound) is answered
   * here to a browser with a page that says so and starts again; an API client keeps oidc-provider's JSON error.
   */
  async function interactionGoesOn(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const provider = await options.idp.provider();
    try {
      await provider.interactionDetails(request.raw, reply.raw);
      return true;
    } catch (error) {
      // Already loaded by the provider above: this import costs nothing more.
      const { errors } = await import('oidc-provider');
      if (!(error instanceof errors.SessionNotFound) || !acceptsHtml(request)) throw error;
      noStore(reply).code(400).type('text/html; charset=utf-8').send(renderExpiredStepPage());
      return false;
    }
  }

  async function finish(request: FastifyRequest, reply: FastifyReply, result: InteractionResults) {
    const provider = await options.idp.provider();
    const location = await provider.interactionResult(request.raw, reply.raw, result, {
      mergeWithLastSubmission: false,
    });
    return noStore(reply).redirect(location, 303);
  }

  await app.register(async (forms) => {
    await forms.register(formBody);
    forms.get<{ Params: { uid: string } }>(`${developmentIssuerPath}/interaction/:uid`, async (request, reply) => {
      if (!(await interactionGoesOn(request, reply))) return reply;
      return noStore(reply)
        .type('text/html; charset=utf-8')
        .send(renderDevelopmentLoginPage({ action: interactionPath(request.params.uid) }));
    });
    forms.post<{ Params: { uid: string }; Body: InteractionForm }>(
      `${developmentIssuerPath}/interaction/:uid`,
      async (request, reply) => {
        if (!(await interactionGoesOn(request, reply))) return reply;
        const form = request.body ?? {};
        if (form.action === 'cancel') {
          return finish(request, reply, { error: 'access_denied', error_description: 'Sign-in was cancelled.' });
        }
        const email = (form.email ?? '').trim();
        const subject = (form.subject ?? '').trim() || undefined;
        const problem =
          !email || email.length > 254
            ? 'Enter an e-mail address of at most 254 characters.'
            : subject !== undefined && !accountIdPattern.test(subject)
              ? 'An account id is 1 to 64 letters, digits, dots, hyphens or underscores.'
              : undefined;
        if (problem) {
          return noStore(reply)
            .code(400)
            .type('text/html; charset=utf-8')
            .send(renderDevelopmentLoginPage({ action: interactionPath(request.params.uid), problem }));
        }
        const accountId = rememberAccount({
          email,
          subject,
          emailVerified: form.verified === 'yes',
          workspaceAccount: form.workspace === 'yes',
        });
        return finish(request, reply, { login: { accountId } });
      },
    );
  });

  // Everything else under the mount is the OpenID protocol itself; oidc-provider reads the raw request body.
  await app.register(async (protocol) => {
    protocol.removeAllContentTypeParsers();
    protocol.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      const handleProtocol = (await options.idp.provider()).callback();
      reply.hijack();
      const raw = request.raw as typeof request.raw & { originalUrl?: string };
      raw.originalUrl = raw.url;
      // oidc-provider builds its endpoint URLs from these; behind a TLS proxy the socket alone would say http.
      raw.headers['x-forwarded-proto'] = options.publicUrl.protocol.slice(0, -1);
      raw.headers['x-forwarded-host'] = options.publicUrl.host;
      raw.url = (raw.url ?? '').slice(developmentIssuerPath.length) || '/';
      handleProtocol(raw, reply.raw);
    };
    protocol.all(developmentIssuerPath, forward);
    protocol.all(`${developmentIssuerPath}/*`, forward);
  });
}
