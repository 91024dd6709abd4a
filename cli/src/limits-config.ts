import {
  DEFAULT_PUBLIC_LIMITS,
  DEFAULT_PUZZLE_BITS,
  DEFAULT_SIGN_IN_LIMITS,
  PUZZLE_BASE_BITS,
  PUZZLE_MAX_BITS,
  type PublicLimits,
  type SignInLimits,
} from '@tessera/core/internal';

/** Every limit of issue 22 items 3, 4 and 8 and the puzzle's difficulty (docs/operations.md "Limits"). */
export type LimitsConfig = { signIn: SignInLimits; public: PublicLimits; puzzleDifficultyBits: number };

export const DEFAULT_LIMITS: LimitsConfig = { signIn: DEFAULT_SIGN_IN_LIMITS, public: DEFAULT_PUBLIC_LIMITS, puzzleDifficultyBits: DEFAULT_PUZZLE_BITS };

/** A whole number of at least `min` from the environment, else the default (a typo must not lift a limit). */
const count = (raw: string | undefined, fallback: number, min = 1): number => {
  const n = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isInteger(n) && n >= min ? n : fallback;
};

/**
 * The limits from TESSERA_* variables (docs/operations.md "Limits"); each one missing or not a
 * whole number keeps its default. The windows are fixed (15 minutes for links, an hour for trials,
 * a minute for surveys); the numbers per window are configurable.
 */
export const limitsFromEnv = (env: Record<string, string | undefined>): LimitsConfig => {
  const d = DEFAULT_LIMITS;
  const maxDelayMs = count(env.TESSERA_SIGNIN_MAX_DELAY_SECONDS, d.signIn.account.maxDelayMs / 1000) * 1000;
  return {
    signIn: {
      account: { ...d.signIn.account, freeAttempts: count(env.TESSERA_SIGNIN_FREE_FAILURES_ACCOUNT, d.signIn.account.freeAttempts), maxDelayMs },
      address: { ...d.signIn.address, freeAttempts: count(env.TESSERA_SIGNIN_FREE_FAILURES_ADDRESS, d.signIn.address.freeAttempts), maxDelayMs },
      linkRecipient: { ...d.signIn.linkRecipient, limit: count(env.TESSERA_LINKS_PER_RECIPIENT, d.signIn.linkRecipient.limit) },
      linkAddress: { ...d.signIn.linkAddress, limit: count(env.TESSERA_LINKS_PER_ADDRESS, d.signIn.linkAddress.limit) },
    },
    public: {
      trialAddress: { ...d.public.trialAddress, limit: count(env.TESSERA_TRIALS_PER_ADDRESS, d.public.trialAddress.limit) },
      trialGlobal: { ...d.public.trialGlobal, limit: count(env.TESSERA_TRIALS_PER_HOUR, d.public.trialGlobal.limit) },
      surveyLink: { ...d.public.surveyLink, limit: count(env.TESSERA_SURVEY_ANSWERS_PER_LINK, d.public.surveyLink.limit) },
      surveyAddress: { ...d.public.surveyAddress, limit: count(env.TESSERA_SURVEY_ANSWERS_PER_ADDRESS, d.public.surveyAddress.limit) },
    },
    puzzleDifficultyBits: Math.min(PUZZLE_MAX_BITS, count(env.TESSERA_PUZZLE_BITS, d.puzzleDifficultyBits, PUZZLE_BASE_BITS)),
  };
};
