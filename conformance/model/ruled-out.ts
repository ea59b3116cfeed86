// The document rules out what a check needs (a value, a fresh id, a body of
// some shape, an operation it does not declare): the check is `skip`, and
// the reason says which keyword or which part of the document. Thrown where
// the need is found out (building a body, reading the model); the runner
// makes it the check's skip, and every report lists it in its coverage.
export class RuledOut extends Error {
  override readonly name = 'RuledOut';
}
