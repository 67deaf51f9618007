// A --hooks module of the wrong shape: `tools` is not an object of functions.
export const tools = 42;
