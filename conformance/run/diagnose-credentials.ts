// The diagnosis of credentials refused where the operation the diagnosis
// sends to needs more than a bearer token (an API key, HTTP Basic, a
// combination): the line names the scheme the document declares, where its
// credential goes, and what to set (--credential SCHEME=…), instead of
// blaming a gateway (issue 42). diagnose.ts keeps the bearer token's own
// diagnoses (no token, the token refused, a gateway).
import { credentialFor } from '../checks/credentials.js';
import type { OperationModel } from '../model/operation-model.js';
import { credentialKind, describeAlternative, describeScheme, type SecuritySchemeModel } from '../model/security.js';
import type { Target } from '../model/target.js';

/** What --credential wants for a scheme, as a user writes it. */
function credentialFlag(s: SecuritySchemeModel): string {
  const kind = credentialKind(s);
  return kind === 'basic' ? `--credential ${s.name}=USER:PASSWORD` : `--credential ${s.name}=…`;
}

/** How a credential is set: the flag, with its environment variable and configuration key. */
const WHERE = '(or a line NAME=VALUE of PLANTSTORE_CREDENTIAL, or credential in the configuration file)';

export interface CredentialDiagnosis {
  kind: 'no-credential' | 'credential-refused';
  problem: string;
  evidence: string;
  fix: string;
}

/**
 * Why the valid request (with the credentials of `alternative`) was refused
 * with `status`, in the words of the document's schemes: a credential not
 * given (a placeholder was sent), or the given ones refused.
 */
export function credentialDiagnosis(
  target: Target,
  op: OperationModel,
  alternative: readonly SecuritySchemeModel[],
  answered: string,
): CredentialDiagnosis {
  const request = `A valid ${op.method} ${op.path}`;
  const missing = alternative.filter((s) => credentialFor(target, s).from === undefined);
  const needs = `${op.method} ${op.path} needs ${op.security
    .filter((a) => a.length > 0)
    .map(describeAlternative)
    .join(', or ')}`;
  const others = op.security.filter((a) => a.length > 0 && a !== alternative && a.some((s) => credentialKind(s)));
  const otherwise =
    others.length > 0
      ? ` Or give the credentials of another alternative: ${others.map((a) => a.map(credentialFlag).join(' and ')).join('; or ')}.`
      : '';
  const gateway = ' If a gateway before the target needs a header of its own, give it with -H "Name: value".';
  if (target.role !== 'target') {
    // A server the harness starts takes no --credential: it is given its own bearer token only.
    return {
      kind: 'no-credential',
      problem: `the ${target.role} server the harness started refuses the placeholder for ${alternative.map(describeScheme).join(' and ')}`,
      evidence: `${needs}; it was answered ${answered}.`,
      fix: `The harness gives the servers it starts a bearer token only, and --credential goes to the --targets: check a server that serves this document's schemes with --target and --credential.`,
    };
  }
  if (missing.length > 0) {
    return {
      kind: 'no-credential',
      problem: `no credential was given for ${missing.map(describeScheme).join(' and ')}, and the target requires one`,
      evidence: `${needs}; with a placeholder for ${missing.map((s) => s.name).join(' and ')} it was answered ${answered}.`,
      fix: `Set ${missing.map(credentialFlag).join(' and ')} ${WHERE}${missing.some((s) => credentialKind(s) === 'bearer') ? ', or --token for a bearer token' : ''}.${otherwise}`,
    };
  }
  const from = alternative.map((s) => `${describeScheme(s)} from ${credentialFor(target, s).from}`);
  return {
    kind: 'credential-refused',
    problem: `the credentials were refused: ${from.join(' and ')}`,
    evidence: `${request} with them was answered ${answered}.`,
    fix: `Give ${alternative.map((s) => credentialFor(target, s).from).join(' and ')} a value this target accepts.${otherwise}${gateway}`,
  };
}
