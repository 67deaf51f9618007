// Filled in by the stores issue.
export {};
