// Error values of formulas (spec 001 §8): a failed evaluation is a value that spreads through what uses it, as in
// Excel; compile-time errors (unknown names, wrong argument counts, parse errors) stop the formula from compiling.

export const FORMULA_ERRORS = {
  NULL: 'Null value encountered!',
  DIV_ZERO: 'Cannot divide by 0!',
  VALUE: 'Invalid value!',
  REF: 'Invalid Reference!',
  NAME: 'Name not found!',
  ARGLENL: 'Less than necessary arguments!',
  ARGLENM: 'More than necessary arguments!',
  NUM: 'Not a valid number!',
  NA: 'Not available!',
  ERROR: 'Not a valid formula!',
  UPDATE: 'Need update!',
} as const;

export type FormulaErrorCode = keyof typeof FORMULA_ERRORS;

/** Why a NUM or DIV_ZERO arose, for the calculation messages (square root, logarithm). */
export type ErrorCause = 'sqrt' | 'log' | 'division';

/** An error value (Excel's #DIV/0!, #VALUE!, ...). */
export class FormulaError {
  constructor(
    readonly code: FormulaErrorCode,
    readonly cause?: ErrorCause,
  ) {}

  get message(): string {
    return FORMULA_ERRORS[this.code];
  }
}

export const isFormulaError = (v: unknown): v is FormulaError => v instanceof FormulaError;

/** The suffix shown after a parse error (spec 001 §5). */
export const NOT_SAVED_SUFFIX = ' Your calculation will not be saved until fixed.';

/**
 * A formula that cannot compile: its code, its message, and where parsing failed. The message of an unknown name, a
 * wrong argument count or a bad time is exactly the spec's (FORMULA_ERRORS); the offending name or text is `token`,
 * for the builder to show beside the message (spec 001 §8), never appended to it.
 */
export class FormulaCompileError extends Error {
  constructor(
    readonly code: FormulaErrorCode,
    message: string,
    readonly position?: { line: number; column: number; expected: string[] },
    readonly token?: string,
  ) {
    super(message);
    this.name = 'FormulaCompileError';
  }

  /** The message as the builder shows it: a parse error (code ERROR) with the not-saved suffix (spec 001 §5). */
  get display(): string {
    return this.code === 'ERROR' ? `${this.message}${NOT_SAVED_SUFFIX}` : this.message;
  }
}
