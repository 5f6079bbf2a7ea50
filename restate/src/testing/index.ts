export { startRestateServer, type RestateServer } from "./restate-server.js";
export { freePort } from "@weft/sdk/testing";
export { startBalancer, type Balancer } from "./balancer.js";
