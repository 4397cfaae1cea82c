// A model server for the grading benchmark: an OpenAI-compatible POST /v1/chat/completions
// on 127.0.0.1 that answers every call with the same approving verdict after `delayMs`,
// as a hosted model would after its latency. Runs in the benchmark's own process.
import http from 'node:http';

const VERDICT = JSON.stringify({ decision: 'approve', score: 80, rationale: 'bench', evidence: ['bench'], counterevidence: [] });
const ANSWER = JSON.stringify({
  model: 'bench-model',
  choices: [{ finish_reason: 'stop', message: { content: VERDICT, refusal: null } }],
  usage: { total_tokens: 300 },
});

export async function startModelServer({ delayMs }) {
  let calls = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls += 1;
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER), delayMs);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    calls: () => calls,
    stop: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}
