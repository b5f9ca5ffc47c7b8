import { helper as split, parse } from './parse.js';
import * as out from './render';

function helper(x: string): string {
  return out.helper(split(x));
}

export function main(text: string): string {
  return out.render(parse(text)) + helper(text);
}
