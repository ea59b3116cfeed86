// The cases of PS-OP-004 to 007 (op-security.ts) for one operation, before
// they are built into calls: which credentials each request carries
// (credentials.ts) and what its answer must be. Each planner is
// deterministic for a document and a target, so that a verdict finds the
// case of a call by its label.
import { challengeRule, type ChallengeRule } from './auth-grades.js';
import { credentialFor, credentialsOf, defaultAlternative, sendable, type SentCredential } from './credentials.js';
import type { CheckContext } from './types.js';
import type { OperationModel } from '../model/operation-model.js';
import { credentialKind, type SecuritySchemeModel } from '../model/security.js';

/** One request of these checks to an operation, before its values are built into a call. */
export interface SecurityCase {
  /** What it sends, unique per operation: the case's label and note. */
  label: string;
  /** The credentials it carries; null: none of any scheme. */
  credentials: SentCredential[] | null;
  /** An Authorization value beside them (a credential of another scheme, a malformed one). */
  authorization?: string;
  /** refused: 401 with `rule`'s challenge; served: a request that needs no credentials; alternative: accepted. */
  expect: 'refused' | 'served' | 'alternative';
  rule?: ChallengeRule;
  /** The scheme the case is about. */
  scheme?: SecuritySchemeModel;
  /** PS-OP-007: a random value of `scheme`, whose acceptance shows that the target does not check it. */
  probe?: boolean;
  /** PS-OP-006: whether every credential of the alternative was given (none is a placeholder). */
  given?: boolean;
  /** PS-OP-007: the operation also allows anonymous access (an empty requirement `{}`), so serving the request anonymously is as correct as refusing it. */
  anonymous?: boolean;
}

export type Planner = (ctx: CheckContext, op: OperationModel) => SecurityCase[];

/** The alternatives the harness can send, none empty. */
const sendableAlternatives = (op: OperationModel) => op.security.filter((a) => a.length > 0 && sendable(a));

/** Whether the schemes of `sent` satisfy an alternative of `op` (OpenAPI 3.1 §4.8.30: one alternative suffices). */
function satisfies(op: OperationModel, sent: readonly SecuritySchemeModel[]): boolean {
  return op.security.some((a) => a.every((s) => sent.some((x) => x.name === s.name)));
}

/** A run-unique random value of a scheme's kind: a token, a key, `user:password`. */
function randomValue(ctx: CheckContext, scheme: SecuritySchemeModel, purpose: string): string {
  const hex = ctx.ids.bytes(`${scheme.name} ${purpose}`, 12).toString('hex');
  return credentialKind(scheme) === 'basic' ? `unknown-${hex.slice(0, 8)}:${hex.slice(8)}` : `unknown-${hex}`;
}

/** PS-OP-004: no credentials; for a secured operation also another scheme and a malformed credential of its own. */
export const requirementCases: Planner = (ctx, op) => {
  if (op.open) return [{ label: 'no credentials, none required', credentials: null, expect: 'served' }];
  const out: SecurityCase[] = [
    {
      label: 'no credentials of any scheme',
      credentials: null,
      expect: 'refused',
      rule: challengeRule(op.security),
    },
  ];
  const alternative = defaultAlternative(ctx.target, op);
  if (!alternative || alternative.length === 0) return out;
  const creds = credentialsOf(ctx.target, alternative);
  for (const c of creds) {
    const others = creds.filter((x) => x !== c);
    const rule = challengeRule(op.security, c.scheme);
    const refused = (label: string, authorization: string): SecurityCase => ({
      label,
      credentials: others,
      authorization,
      expect: 'refused',
      rule,
      scheme: c.scheme,
    });
    const kind = credentialKind(c.scheme);
    if (kind === 'bearer')
      out.push(
        refused(`another scheme (Basic) for ${c.scheme.name}`, 'Basic cGxhbnQ6c3RvcmU='),
        refused(`a malformed credential (Bearer without a token) for ${c.scheme.name}`, 'Bearer'),
      );
    else if (kind === 'basic')
      out.push(
        refused(`another scheme (Bearer) for ${c.scheme.name}`, `Bearer ${randomValue(ctx, c.scheme, 'bearer')}`),
        refused(`a malformed credential (Basic with a value that is not base64) for ${c.scheme.name}`, 'Basic @@@'),
      );
    else {
      // The key where a bearer token goes: a server that takes any Authorization for the key serves it.
      if (!others.some((x) => credentialKind(x.scheme) !== 'apiKey'))
        out.push(
          refused(`the key of ${c.scheme.name} as a bearer token, not in its ${c.scheme.in}`, `Bearer ${c.value}`),
        );
      out.push({
        label: `a malformed credential (an empty key) for ${c.scheme.name}`,
        credentials: [...others, { scheme: c.scheme, value: '' }],
        expect: 'refused',
        rule,
        scheme: c.scheme,
      });
    }
  }
  return out;
};

/** PS-OP-005: each scheme of a combination left out, the others sent, where what is left satisfies no alternative. */
export const combinationCases: Planner = (ctx, op) => {
  const out: SecurityCase[] = [];
  for (const alternative of sendableAlternatives(op).filter((a) => a.length > 1)) {
    for (const left of alternative) {
      const rest = alternative.filter((s) => s !== left);
      if (satisfies(op, rest)) continue;
      out.push({
        label: `${rest.map((s) => s.name).join(' and ')} without ${left.name} (the requirement ${alternative.map((s) => s.name).join(' + ')})`,
        credentials: credentialsOf(ctx.target, rest),
        expect: 'refused',
        rule: challengeRule(op.security, left),
        scheme: left,
      });
    }
  }
  return out;
};

/** PS-OP-006: each alternative alone, where the operation has several. */
export const alternativeCases: Planner = (ctx, op) => {
  const alternatives = sendableAlternatives(op);
  if (alternatives.length < 2) return [];
  return alternatives.map((a) => ({
    label: `the alternative ${a.map((s) => s.name).join(' + ')} alone`,
    credentials: credentialsOf(ctx.target, a),
    expect: 'alternative',
    given: a.every((s) => credentialFor(ctx.target, s).from !== undefined),
  }));
};

/** PS-OP-007: a random value, then a near miss of the real one, of each scheme of each alternative, the rest right. */
export const wrongValueCases: Planner = (ctx, op) => {
  // `security: []` names no scheme; an empty alternative beside others (`[{bearerAuth: []}, {}]`) still names the
  // schemes whose wrong values are sent, and the answer is graded knowing anonymous access is allowed too.
  const anonymous = op.security.some((a) => a.length === 0);
  const out: SecurityCase[] = [];
  for (const alternative of sendableAlternatives(op)) {
    const creds = credentialsOf(ctx.target, alternative);
    for (const c of creds) {
      const others = creds.filter((x) => x !== c);
      // The others alone satisfy a named alternative: the wrong value would not be the reason of any refusal.
      const named = { ...op, security: op.security.filter((a) => a.length > 0) };
      if (
        satisfies(
          named,
          others.map((x) => x.scheme),
        )
      )
        continue;
      const rule = challengeRule(op.security, c.scheme);
      const of = `${c.scheme.name}${alternative.length > 1 ? ` (with ${others.map((x) => x.scheme.name).join(', ')})` : ''}`;
      out.push(
        {
          label: `a random ${credentialKind(c.scheme) === 'basic' ? 'user and password' : 'value'} for ${of}`,
          credentials: [...others, { scheme: c.scheme, value: randomValue(ctx, c.scheme, 'random') }],
          expect: 'refused',
          rule,
          scheme: c.scheme,
          probe: true,
          ...(anonymous ? { anonymous } : {}),
        },
        {
          label: `${credentialKind(c.scheme) === 'basic' ? 'the password' : 'the value'} with a character added for ${of}`,
          credentials: [...others, { scheme: c.scheme, value: `${c.value}x` }],
          expect: 'refused',
          rule,
          scheme: c.scheme,
          ...(anonymous ? { anonymous } : {}),
        },
      );
    }
  }
  return out;
};
