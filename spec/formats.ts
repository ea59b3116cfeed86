// The ranges of the integer formats of the OpenAPI Format Registry, read by
// both the server (exact int64 validation) and the harness (boundary cases).
// https://spec.openapis.org/registry/format/int64: "signed 64-bit integer".

export const INTEGER_FORMAT_RANGES: Readonly<Record<string, readonly [bigint, bigint]>> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
};

export const [INT64_MIN, INT64_MAX] = INTEGER_FORMAT_RANGES.int64!;

/** The inclusive range of an integer format, or undefined for a format without one (or none). */
export function integerRange(format: string | undefined): readonly [bigint, bigint] | undefined {
  // Own keys only: a format named "constructor" or "toString" has no range.
  return format !== undefined && Object.hasOwn(INTEGER_FORMAT_RANGES, format)
    ? INTEGER_FORMAT_RANGES[format]
    : undefined;
}
