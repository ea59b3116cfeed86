// The shape of a chain of calls (op-cases.ts): what a case of the checks
// that reach every operation carries, a call to an operation, a step built
// from the answers before it, and the state of a chain so far.
import type { RequestSpec } from './exchange.js';
import type { JsonValue } from '../model/json.js';
import type { ResourceModel } from '../model/resource.js';
import type { Body } from '../cases/schema-values.js';
import type { CaseExchange } from './types.js';

/** What the runner hands the next step: the created item's id, and every answer so far in this chain. */
export interface Chain {
  /** The resource whose item the chain created (the create checks' own where none was). */
  resource?: ResourceModel;
  /** The id the item is known by (created.ts createdId). */
  id?: JsonValue;
  /** The body the create sent. */
  created?: Body;
  /** The create's answer, parsed (undefined when it was not JSON). */
  createdAnswer?: JsonValue;
  /** Which of the stored parents the item lives under. */
  parent?: number;
  /** Every exchange of the chain so far, in order (the create first). */
  steps: Array<CaseExchange<OpSent>>;
}

/** A request to an operation, and what it is. */
export interface Call {
  /** `METHOD /path` of the operation, as the document declares it. */
  operation: string;
  label: string;
  request: RequestSpec;
  /** A step to take right after this one (a list's next page), before the rest. */
  then?: Step;
  /** The body of a create this call sends after the chain's first (a second item), for the verdict to find the item by. */
  made?: Body;
  /** A valid request that sets one parameter at a boundary of its range (PS-OP-002 grades it by what the document says of that bound). */
  boundary?: BoundaryValue;
  /** An invalid request that sets one parameter outside its format (`limit=2147483648`), named in the cause of its verdict. */
  outOfFormat?: string;
}

/** A parameter set at a boundary of its range, and whether a keyword of its schema writes that bound. */
export interface BoundaryValue {
  parameter: string;
  text: string;
  declared: boolean;
}

/** A step of a chain: its requests (sent one after the other), built from what came before. */
export type Step = (chain: Chain) => Call | Call[] | undefined;

/** What a case of these checks carries: which operation and step it is, and the steps left. */
export interface OpSent {
  /** `METHOD /path` of the operation this case is about (the create's own for a create that prepares a call). */
  operation: string;
  /** What this request is, in a few words (also its note). */
  label: string;
  /** The chain it belongs to (every case of a chain has the same). */
  chain: number;
  /** Its place in the chain: 0 for the first. */
  step: number;
  /** The steps that follow it, sent once it is answered. */
  rest: Step[];
  /** The create that starts a chain. */
  create?: Body;
  /** The body of a create sent later in the chain (Call.made). */
  made?: Body;
  /** The boundary the call sets (Call.boundary). */
  boundary?: BoundaryValue;
  /** The parameter value outside its format the call sets (Call.outOfFormat). */
  outOfFormat?: string;
  /** The collection the create stores an item of. */
  collection?: string;
  /** Which of the stored parents it lives under. */
  parent?: number;
}
