// The formula language of calculated questions (spec 001 §5, §8): parse once, compile to a closure, evaluate.
export * from './errors.js';
export * from './values.js';
export {
  AGGREGATE_FUNCTIONS,
  FUNCTIONS,
  type AggregateName,
  type Arg,
  type EvalContext,
  type FunctionDef,
} from './functions.js';
export {
  checkFormulaBounds,
  compileFormula,
  compileUncached,
  FORMULA_LIMIT_MESSAGES,
  FORMULA_LIMITS,
  parseFormula,
  parseWithOhm,
  type CompiledFormula,
  type FormulaRef,
} from './compile.js';
