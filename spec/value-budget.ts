// The budget of a value made from a schema: the server's answers made from a
// response schema (server/operations/schema-example.ts) and the harness's
// values drawn from the document's schemas (conformance/cases/schema-values.ts,
// which compat's witnesses use) count what they make against it, and stop
// past it. Without it a 4.5 KB document whose answer is three arrays nested,
// each of minItems 1000, kept the server from ever listening (1.66 GB after
// 90 s), and ran compat to its deadline (issue 41). Both sides read spec/;
// neither imports the other.

/** Most values one made value holds: every scalar, array and object counts one. */
export const MAX_MADE_VALUES = 10_000;

/** Most characters of JSON text one made value takes (262144: 256 KiB of ASCII). */
export const MAX_MADE_BYTES = 256 * 1024;

/** Thrown while a value is made, once its budget is spent; whoever started the making catches it and says why (ValueBudget.reason). */
export class BudgetSpent extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** What one made value has used of its budget. */
export class ValueBudget {
  private values = 0;
  private bytes = 0;

  constructor(
    readonly maxValues = MAX_MADE_VALUES,
    readonly maxBytes = MAX_MADE_BYTES,
  ) {}

  /** Counts `values` values taking `bytes` characters of JSON text; throws BudgetSpent past either bound, before anything that large is made. */
  charge(values: number, bytes: number): void {
    this.values += values;
    this.bytes += bytes;
    if (this.values > this.maxValues)
      throw new BudgetSpent(`would hold more than ${this.maxValues} values, the most a value made from a schema may`);
    if (this.bytes > this.maxBytes)
      throw new BudgetSpent(
        `would take more than ${this.maxBytes} bytes of JSON, the most a value made from a schema may`,
      );
  }

  /** Counts a value the document gives (an example, a `const`, a `default`) each time it is used: its values and its text, walked no further than the budget. */
  chargeGiven(value: unknown): void {
    if (Array.isArray(value)) {
      this.charge(1, 2);
      for (const item of value) {
        this.chargeGiven(item);
        this.charge(0, 1);
      }
    } else if (value !== null && typeof value === 'object') {
      this.charge(1, 2);
      for (const [name, member] of Object.entries(value)) {
        this.charge(0, name.length + 4);
        this.chargeGiven(member);
      }
    } else {
      this.charge(1, typeof value === 'string' ? value.length + 2 : String(value).length);
    }
  }
}

/** Whether `value` fits in a budget of its own (a value made elsewhere, whose parts may be shared: counted as its JSON text would write them). */
export function withinBudget(value: unknown, budget = new ValueBudget()): boolean {
  try {
    budget.chargeGiven(value);
    return true;
  } catch (error) {
    if (error instanceof BudgetSpent) return false;
    throw error;
  }
}
