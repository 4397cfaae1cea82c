import { readFileSync } from 'node:fs';
import { verifyCheckpoint, verifyCheckpointAnswer, verifyEventProofs, ProofError, verifyCollection } from '@gate/client';
import { EXIT, exitAfterWriting } from './exit-codes.js';


class BadArgument extends Error {}

/** A file's text (`-` is standard input). */
function readText(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw new BadArgument(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** A saved answer: the JSON-RPC reply `gate call` prints, or its result alone; or a checkpoint note as plain text. */
function readAnswer(path: string): unknown {
  const text = readText(path);
  if (!text.trimStart().startsWith('{')) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new BadArgument(`${path} is not JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null) throw new BadArgument(`${path} holds no answer object`);
  const reply = parsed as Record<string, unknown>;
  if ('error' in reply && !('result' in reply)) throw new BadArgument(`${path} holds an error answer, not a result`);
  return 'result' in reply && reply['jsonrpc'] === '2.0' ? reply['result'] : reply;
}

/** An older checkpoint kept by the reader: a note, or a saved answer carrying one (gv.checkpoint, gv.why...). */
function readCheckpointNote(path: string): string {
  const answer = readAnswer(path);
  if (typeof answer === 'string') return answer;
  const note = (answer as Record<string, unknown>)['checkpoint'];
  if (typeof note !== 'string') throw new BadArgument(`${path} holds no checkpoint`);
  return note;
}

async function verifyAnswer(deploymentId: string, answer: unknown, since: string | undefined): Promise<string> {
  if (typeof answer === 'string') {
    if (since !== undefined) throw new BadArgument('--since needs an answer with a consistency proof (gv.checkpoint with from_size), not a bare note');
    const checkpoint = await verifyCheckpoint(deploymentId, answer);
    return `checkpoint ok: ${checkpoint.size} events, root ${checkpoint.root}`;
  }
  const fields = answer as Record<string, unknown>;
  if ('collection' in fields) {
    if (since !== undefined) throw new BadArgument('--since goes with a gv.checkpoint answer');
    const { header, rows_checked } = await verifyCollection(deploymentId, answer);
    const rows =
      rows_checked === header.rows ? `all ${header.rows} rows checked` : rows_checked === 1 ? `one row proven a member of its ${header.rows}` : `${header.rows} rows, none checked (a partial page)`;
    return `collection ${header.name} version ${header.version} of space ${header.space} ok: cut at ${header.journal_size} events, published on the record; ${rows}`;
  }
  if ('events' in fields || 'decisions' in fields) {
    if (since !== undefined) throw new BadArgument('--since goes with a gv.checkpoint answer');
    const { checkpoint, events } = await verifyEventProofs(deploymentId, answer);
    return `${events} events proven in the checkpoint of ${checkpoint.size} events, root ${checkpoint.root}`;
  }
  if ('size' in fields && 'root' in fields) {
    const older = since === undefined ? undefined : readCheckpointNote(since);
    const { checkpoint, inclusion, consistency } = await verifyCheckpointAnswer(deploymentId, answer, older);
    const also = [inclusion ? 'the event proven in it' : null, consistency ? `consistent with the checkpoint kept from ${since}` : null].filter((s) => s !== null);
    return `checkpoint ok: ${checkpoint.size} events, root ${checkpoint.root}${also.length > 0 ? `; ${also.join('; ')}` : ''}`;
  }
  throw new BadArgument('not an answer this command verifies: a checkpoint note, or a saved answer of gv.why, gv.audit, gv.checkpoint or gv.collection');
}

/**
 * `gate proof verify`: checks saved answers offline with the deployment id alone, through the
 * client library's own verifiers (the ones a browser runs), never the home's files.
 */
export async function proofVerifyCommand(file: string, options: { deploymentId: string; since?: string }): Promise<void> {
  try {
    const line = await verifyAnswer(options.deploymentId, readAnswer(file), options.since);
    exitAfterWriting(process.stdout, `${line}\n`, EXIT.result);
  } catch (error) {
    if (error instanceof ProofError) return exitAfterWriting(process.stdout, `REFUSED (${error.code}): ${error.message}\n`, EXIT.errorObject);
    if (error instanceof BadArgument) return exitAfterWriting(process.stderr, `gate proof verify: ${error.message}\n`, EXIT.badArgument);
    throw error;
  }
}
