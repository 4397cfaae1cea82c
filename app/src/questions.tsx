import { useCallback, useEffect, useState } from 'preact/hooks';
import { Problem } from './problem.js';
import { rpc } from './rpc.js';
import type { VerbAnswer } from '../../src/verbs/verb-types.js';
import { when } from './when.js';
import { standingAnswerOf } from './own-answer.js';

// Questions waiting for people (gv.review's questions: those naming you first), each with a
// form to answer it. An answer is an answer/1 row like any other: it is scanned, held and
// reviewed before the asker reads it. A question the person answered shows their answer
// that stands (found among the rows naming the question, gv.graph's `cited_by`) instead of
// the form: the gate refuses a second one while it stands.

/** An open question as the queue serves it (gv.review's `questions`, the verb's own declaration). */
type OpenQuestion = VerbAnswer<'gv.review'>['questions'][number];

/** The question's words from its question/1 body; the body as stored when it is not one. */
function questionText(body: string | null): { question: string; context?: string } {
  try {
    const parsed = JSON.parse(body ?? '');
    if (typeof parsed?.question === 'string') return { question: parsed.question, ...(typeof parsed.context === 'string' ? { context: parsed.context } : {}) };
  } catch {
    // Shown as stored below.
  }
  return { question: body ?? '(no text)' };
}

const left = (minutes: number | null) => (minutes === null ? 'no time limit' : minutes >= 120 ? `${Math.round(minutes / 60)} h left` : `${minutes} min left`);

/** The person's answer that stands on a question: its row, state and words (null until read). */
interface OwnAnswer {
  artifact_id: string;
  state: string;
  text: string | null;
}

/** The words of an answer/1 body; the body as stored when it is not one. */
function answerText(body: string | null | undefined): string | null {
  if (body === null || body === undefined) return null;
  try {
    const parsed = JSON.parse(body);
    if (typeof parsed?.answer === 'string') return parsed.answer;
  } catch {
    // Shown as stored.
  }
  return body;
}

/** For each open question the person answered, the answer of theirs that stands, with its words read from its row. */
async function ownAnswers(open: readonly OpenQuestion[], identity: string): Promise<Map<string, OwnAnswer>> {
  const mine = new Map<string, OwnAnswer>();
  if (open.length === 0) return mine;
  const graph = await rpc('gv.graph', { kinds: ['question'], states: ['ACTIVE'] });
  const nodes = graph.nodes ?? [];
  const asked = new Set(open.map((q) => q.question));
  for (const node of nodes) {
    if (!asked.has(node.artifact_id)) continue;
    const standing = standingAnswerOf(node.cited_by ?? [], identity);
    if (standing !== undefined) mine.set(node.artifact_id, { artifact_id: standing.artifact_id, state: standing.state, text: null });
  }
  await Promise.all(
    [...mine.values()].map(async (a) => {
      a.text = answerText((await rpc('gv.node', { artifact_id: a.artifact_id, body: true })).body);
    }),
  );
  return mine;
}

function YourAnswer({ answer }: { answer: OwnAnswer }) {
  return (
    <div class="your-answer">
      <p>
        You answered{answer.state === 'ACTIVE' ? '' : ' (held until a reviewer promotes it)'}:{' '}
        <a class="id" href={`#/row/${encodeURIComponent(answer.artifact_id)}`}>
          {answer.artifact_id.slice(0, 16)}
        </a>
      </p>
      {answer.text !== null && <blockquote class="answer-text">{answer.text}</blockquote>}
    </div>
  );
}

function AnswerForm({ q, onAnswered }: { q: OpenQuestion; onAnswered: (id: string, text: string) => void }) {
  const [error, setError] = useState<unknown>(null);
  // The words are read from the form as it is sent, never from a state a render may not have caught up with.
  const send = async (form: HTMLFormElement) => {
    const text = String(new FormData(form).get('answer') ?? '');
    if (text.trim() === '') return;
    try {
      const r = await rpc('gv.ingest', {
        kind: 'answer',
        content: JSON.stringify({ format: 'answer/1', answer: text }),
        workarea: q.workarea ?? 'answers',
        space: q.space,
        source_uri: `${location.origin}/app#/questions`,
        derives_from: [q.question],
      });
      form.reset();
      setError(null);
      onAnswered(r.artifact_id, text);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <form
      class="answer"
      aria-label={`Answer ${q.question.slice(0, 16)}`}
      onSubmit={(e) => {
        e.preventDefault();
        void send(e.currentTarget as HTMLFormElement);
      }}
    >
      <textarea name="answer" rows={3} cols={70} />
      <button type="submit">Answer</button>
      <Problem error={error} />
    </form>
  );
}

export function Questions({ you, onNotice }: { you: { identity: string }; onNotice: (t: string) => void }) {
  const [open, setOpen] = useState<OpenQuestion[] | null>(null);
  const [answered, setAnswered] = useState<ReadonlyMap<string, OwnAnswer>>(new Map());
  const [truncated, setTruncated] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(async () => {
    try {
      const r = await rpc('gv.review', { cap: 1 });
      const mine = await ownAnswers(r.questions, you.identity);
      setOpen(r.questions);
      setAnswered(mine);
      setTruncated(r.questions_truncated);
      setError(null);
    } catch (e) {
      setError(e);
    }
  }, [you.identity]);
  useEffect(() => void load(), [load]);

  if (open === null) return error ? <Problem error={error} /> : <p>Loading…</p>;
  return (
    <section aria-label="Questions">
      <h2>Questions waiting for people</h2>
      <Problem error={error} />
      {open.length === 0 ? (
        <p class="empty">No question waits for people.</p>
      ) : (
        <ol class="questions">
          {open.map((q) => {
            const { question, context } = questionText(q.body);
            return (
              <li key={q.question} data-question={q.question} class={q.named ? 'named' : ''}>
                <p>
                  {q.named && <span class="tag">for you</span>} <strong class="question-text">{question}</strong>
                </p>
                {context && <p class="context">{context}</p>}
                <p class="meta">
                  asked by <span class="id">{q.asker}</span> in {q.space} · {q.workarea ?? '—'}, {when(q.promoted_at)}; {left(q.minutes_left)} ·{' '}
                  <a class="id" href={`#/row/${encodeURIComponent(q.question)}`}>
                    {q.question.slice(0, 16)}
                  </a>
                </p>
                {answered.has(q.question) ? (
                  <YourAnswer answer={answered.get(q.question)!} />
                ) : (
                  <AnswerForm
                    q={q}
                    onAnswered={(id, text) => {
                      onNotice(`Answer ${id.slice(0, 16)} sent: it is held until a reviewer promotes it.`);
                      // Shown at once; the reload below reads it back from the gate.
                      setAnswered((old) => new Map(old).set(q.question, { artifact_id: id, state: 'L1_SCANNED', text }));
                      void load();
                    }}
                  />
                )}
              </li>
            );
          })}
        </ol>
      )}
      {truncated && <p class="empty">More questions wait than are shown.</p>}
    </section>
  );
}
