export { string } from "./v4/index";
