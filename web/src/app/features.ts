// Product feature switches. Spec 000 §9 and 001 §9 list cross-schema calculations, results print and print as
// disabled; the export routes exist only when results print is not disabled.
export const FEATURES = {
  printResults: false,
  print: false,
  crossSchemaCalculations: false,
} as const;
