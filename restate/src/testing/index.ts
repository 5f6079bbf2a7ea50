export { startRestateServer, freePort, type RestateServer } from "./restate-server.js";
export { startBalancer, type Balancer } from "./balancer.js";
