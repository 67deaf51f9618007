// biome-ignore-all lint/suspicious/noConsole: the point of this module is hook code that writes to console.log.
// A --hooks module for the stdout test: it writes to console.log when loaded and on every get-env
// result, as careless hook code does; in stdio mode none of it may reach stdout.
console.log("chatty hooks loaded");

export default {
  tools: {
    "get-env": () => {
      console.log("chatty hook saw get-env");
      console.info("chatty hook info");
    },
  },
};
