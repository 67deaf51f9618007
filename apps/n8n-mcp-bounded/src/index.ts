// The public surface of this package is filled in by its own issue; nothing is exported yet.
export {};
