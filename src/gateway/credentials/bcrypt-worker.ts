// One worker thread of the bcrypt pool (bcrypt-pool.ts): runs bcryptjs synchronously, one job at a time, so the
// gateway's event loop never spends a millisecond on it. Messages: {id, op: 'compare', plain, hash} -> {id, ok} and
// {id, op: 'hash', plain, cost} -> {id, hash}; a failure -> {id, error}. Never logs what it is given.
import { parentPort } from 'node:worker_threads';
import bcrypt from 'bcryptjs';
import type { BcryptJob, BcryptReply } from './bcrypt-pool.ts';

parentPort!.on('message', (job: BcryptJob) => {
  let reply: BcryptReply;
  try {
    reply = job.op === 'compare' ? { id: job.id, ok: bcrypt.compareSync(job.plain, job.hash) } : { id: job.id, hash: bcrypt.hashSync(job.plain, job.cost) };
  } catch (error) {
    reply = { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
