/** Runs in its own process for bench/gate.ts: the same server twice, gated and ungated, over the same build. */
import { startServer } from '../e2e/harness';
import { signIn } from '../e2e/sign-in';

const gated = await startServer({ LOG_LEVEL: 'silent' });
const ungated = await startServer({ LOG_LEVEL: 'silent' }, { ungatedForBenchmark: true });
const { jar } = await signIn(gated.baseUrl, { email: 'bench@acme.dev' });
console.log(
  JSON.stringify({ gated: gated.baseUrl, ungated: ungated.baseUrl, cookie: `acme_session=${jar.get('acme_session')}` }),
);
