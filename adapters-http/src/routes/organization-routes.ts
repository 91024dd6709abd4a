import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import { isLeft, type Either } from 'fp-ts/lib/Either.js';
import type { Logger } from 'pino';
import {
  API,
  DEFAULT_PUZZLE_BITS,
  InMemoryAttemptLedger,
  newUserProblem,
  normalizeOrganizationName,
  PublicCallLimits,
  PUZZLE_VALIDITY_MS,
  checkSignUpPuzzle,
  retryAfterSeconds,
  type Clock,
  type InputError,
  type OrganizationDirectory,
  type SessionStore,
  type SignInService,
  type SignUpForm,
  type TrialForm,
} from '@tessera/core/internal';
import type { PuzzleSeal } from '../auth/puzzle-seal.js';
import { sendToken } from '../auth/token-header.js';
import { sendDomainError, sendText } from '../http-errors.js';
import { route, routerOf, sendAnswer } from '../route.js';
import { clientOf } from './form-fields.js';

/** Creates an organization with its first (admin) user: the composition root supplies the packs. */
export interface OrganizationFactory {
  create(input: { orgName: string; admin: { name: string; email: string; password: string } }): Promise<Either<InputError, { orgName: string }>>;
}

/** Spec 000 section 8: sign-up and trial failures read 'Invalid Username or password'. */
const SIGNUP_FAILED = 'Invalid Username or password';

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

type Deps = {
  signIn: SignInService;
  sessions: SessionStore;
  directory: OrganizationDirectory;
  organizations: OrganizationFactory;
  puzzles: PuzzleSeal;
  clock: Clock;
  logger: Logger;
  /** Trials per address and in all (issue 22 item 4); without it they count in this process only, at the defaults. */
  publicLimits?: PublicCallLimits;
  /** The puzzle's difficulty in bits (default DEFAULT_PUZZLE_BITS, about 1 s of a browser's work; at least the spec's 16). */
  config?: { puzzleDifficultyBits?: number };
};

/** A trial over the caps: 429 with Retry-After; the page shows spec 000 section 8's failure text with this reason. */
const TOO_MANY_TRIALS = 'ERR_TOO_MANY_REQUESTS: too many trial organizations were created; try again later';

/** GET /api/formpuzzle, POST /api/signup, POST /api/trial. */
export const organizationRoutes = (deps: Deps): Router => {
  const limits = deps.publicLimits ?? new PublicCallLimits(new InMemoryAttemptLedger(), deps.clock);
  const difficulty = deps.config?.puzzleDifficultyBits ?? DEFAULT_PUZZLE_BITS;
  const signInAfterCreation = async (req: Request, res: Response, org: string, form: { username: string; password: string }): Promise<void> => {
    const result = await deps.signIn.login({ organization: org, username: form.username, password: form.password }, clientOf(req));
    if (isLeft(result)) return sendText(res, result.left.status === 429 ? 429 : 400, SIGNUP_FAILED);
    sendToken(res, result.right.token);
    sendText(res, 200, 'OK');
  };

  /** The proof of work of sign-up and trial: sealed here, unexpired, solved, and used once (spec 000 section 9). */
  const puzzleSolved = async (form: SignUpForm | TrialForm, res: Response): Promise<boolean> => {
    const puzzle = await checkSignUpPuzzle(await deps.puzzles.open(form.cookie, form.iv), form.solved, deps.clock.now(), sha256Hex);
    if (isLeft(puzzle)) {
      sendDomainError(res, puzzle.left);
      return false;
    }
    if (!(await deps.sessions.usePuzzle(puzzle.right.id, new Date(puzzle.right.expires)))) {
      sendText(res, 400, 'ERR_INPUT: the puzzle was used already');
      return false;
    }
    return true;
  };

  const input = (form: TrialForm) => ({
    orgName: form.organization,
    admin: { name: form.person, email: form.username, password: form.password },
  });

  return routerOf(null, [
    route(API.formPuzzle, async (_none, _req, res) => {
      const salt = randomBytes(16).toString('hex');
      const hash = sha256Hex(randomBytes(16).toString('hex'));
      const expires = deps.clock.now().getTime() + PUZZLE_VALIDITY_MS;
      const { cookie, iv } = await deps.puzzles.seal({ id: randomUUID(), salt, hash, difficulty, expires });
      sendAnswer(res, API.formPuzzle, { salt, hash, cookie, iv, difficulty });
    }),

    // Sign-up creates a new organization whose first user is the one signing up; the proof of
    // work must be one this server handed out, unexpired, unused and of the right difficulty.
    route(API.signUp, async (form, req, res) => {
      if (!(await puzzleSolved(form, res))) return;
      const created = await deps.organizations.create(input(form));
      if (isLeft(created)) return sendText(res, 400, `ERR_INPUT: ${created.left.message}`);
      await signInAfterCreation(req, res, created.right.orgName, form);
    }),

    // The trial answers WAIT while the organization is being created; the client asks again
    // every 5 seconds, and once it exists the same credentials sign in. Creating one takes the
    // proof of work of sign-up and a place within the per-address and global caps (issue 22
    // item 4), checked in that order so that unsolved requests use up no place.
    route(API.trial, async (form, req, res) => {
      const org = normalizeOrganizationName(form.organization);
      if (!org) return sendText(res, 400, SIGNUP_FAILED);
      const status = await deps.directory.status(org);
      if (status === null || status === 'failed') {
        const data = input(form);
        const problem = newUserProblem(data.admin);
        if (problem) return sendText(res, 400, `ERR_INPUT: ${problem}`);
        if (!(await puzzleSolved(form, res))) return;
        const place = await limits.trial(clientOf(req).ip);
        if (!place.allowed) {
          res.setHeader('Retry-After', String(retryAfterSeconds(place.retryAfterMs)));
          return sendText(res, 429, TOO_MANY_TRIALS);
        }
        // The creation goes on after this answer; its failure is logged and the next call tells.
        deps.organizations.create(data).then(
          (r) => {
            if (isLeft(r)) deps.logger.warn({ org, reason: r.left.message }, 'trial organization not created');
          },
          (e: unknown) => deps.logger.error({ org, err: e }, 'trial organization creation failed'),
        );
        return sendText(res, 200, 'WAIT');
      }
      if (status === 'creating') return sendText(res, 200, 'WAIT');
      await signInAfterCreation(req, res, org, form);
    }),
  ]);
};
