// --credential SCHEME=VALUE: a credential for one security scheme of the
// document. parseCredentials reads the values wherever they came from (a
// flag, PLANTSTORE_CREDENTIAL, the configuration file); checkCredentials
// holds them to the document once it is read: the scheme declared, the
// value of the shape the scheme takes (USER:PASSWORD for HTTP Basic).
import type { SpecModel } from '../model/spec-model.js';
import { credentialKind, declaredSchemes, describeScheme } from '../model/security.js';
import type { GivenCredential } from '../model/target.js';
import { didYouMean } from './suggest.js';
import { UsageError, type Given } from './values.js';

/** A scheme's name as --credential takes it: any name a document may give it, but no "=" (which ends it) and no control character. */
const SCHEME_NAME = /^[^=\u0000-\u001f\u007f]+$/;

/**
 * The --credential values, each `SCHEME=VALUE`: the scheme named once, a
 * value without control characters (a line break would start another
 * header). Whether the document declares the scheme, and what the value
 * must look like for it, is checked once the document is read
 * (checkCredentials).
 */
export function parseCredentials(given: Given | undefined): GivenCredential[] {
  const out: GivenCredential[] = [];
  for (const raw of (given?.value as string[] | undefined) ?? []) {
    const eq = raw.indexOf('=');
    const scheme = eq === -1 ? '' : raw.slice(0, eq).trim();
    const value = eq === -1 ? '' : raw.slice(eq + 1);
    if (eq === -1 || !SCHEME_NAME.test(scheme))
      throw new UsageError(
        `${given!.from} ${JSON.stringify(eq === -1 ? '…' : `${scheme}=…`)}: a credential is written SCHEME=VALUE, SCHEME the name of a security scheme of the document, e.g. --credential "plantKey=$API_KEY"`,
      );
    if (value === '') throw new UsageError(`${given!.from} ${scheme}=: the credential is empty`);
    if (/[\u0000-\u001f\u007f]/.test(value))
      throw new UsageError(
        `${given!.from} ${scheme}=…: a credential cannot hold control characters (a line break would start another header)`,
      );
    if (out.some((c) => c.scheme === scheme)) throw new UsageError(`${given!.from} ${scheme}: given twice`);
    out.push({ scheme, value, from: `${given!.from} ${scheme}` });
  }
  return out;
}

/** Throws UsageError when a credential names no scheme of the document, or one that takes another shape of value. */
export function checkCredentials(model: Pick<SpecModel, 'doc'>, credentials: readonly GivenCredential[]): void {
  const schemes = declaredSchemes(model.doc);
  for (const c of credentials) {
    const scheme = schemes.find((s) => s.name === c.scheme);
    if (!scheme) {
      const names = schemes.map((s) => s.name);
      throw new UsageError(
        `${c.from}: the document declares no security scheme ${JSON.stringify(c.scheme)}${didYouMean(c.scheme, names)}; ${names.length > 0 ? `its schemes: ${names.join(', ')}` : 'it declares none'}`,
      );
    }
    const kind = credentialKind(scheme);
    if (kind === undefined) throw new UsageError(`${c.from}: the harness cannot send ${describeScheme(scheme)}`);
    if (kind === 'basic' && !c.value.includes(':'))
      throw new UsageError(`${c.from}: ${describeScheme(scheme)} takes USER:PASSWORD (RFC 7617 §2), with a colon`);
  }
}
