// Loaded with `node --import` before a server nobody here wrote: whatever port and interface
// its code asks for (often a fixed port on every interface), it listens on a free port of
// 127.0.0.1, and tells the test that started it which one over the IPC channel. Servers are
// then never reachable from outside the machine, and parallel runs never collide on a port.
import net from "node:net";

const listen = net.Server.prototype.listen;

net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]) {
  const callback = args.find((arg) => typeof arg === "function") as (() => void) | undefined;
  this.once("listening", () => {
    const address = this.address();
    if (address !== null && typeof address === "object") {
      process.send?.({ listening: address.port });
    }
  });
  return listen.call(this, { port: 0, host: "127.0.0.1" }, callback);
} as typeof net.Server.prototype.listen;
