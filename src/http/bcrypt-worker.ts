// One worker thread of the bcrypt pool (bcrypt-pool.ts): runs bcryptjs synchronously, one job at a time, so the
// gateway's event loop never spends a millisecond on it. Messages: {id, op: 'compare', plain, hash} -> {id, ok} and
// {id, op: 'hash', plain, cost} -> {id, hash}; a failure -> {id, error}. Never logs what it is given.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import bcrypt from 'bcryptjs';
import type { BcryptJob, BcryptReply } from './bcrypt-pool.ts';

// A lower scheduling priority for this thread only (Linux applies setpriority(2) to the calling thread): when the
// machine is busy, the event loop serving requests runs first and password checks wait (their queue is bounded).
try {
  setPriority(10);
} catch {
  // not permitted or not supported: the normal priority
}

parentPort!.on('message', (job: BcryptJob) => {
  let reply: BcryptReply;
  try {
    reply = job.op === 'compare' ? { id: job.id, ok: bcrypt.compareSync(job.plain, job.hash) } : { id: job.id, hash: bcrypt.hashSync(job.plain, job.cost) };
  } catch (error) {
    reply = { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
