export * from './strings.js';
export { default as slug } from './strings.js';
export * as numbers from './numbers.mjs';
