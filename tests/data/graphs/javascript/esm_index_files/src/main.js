import { capitalize, slug, numbers } from './util';
import * as strings from './util/strings';
import makeSlug from './util/strings.js';

export function title(s) {
  return capitalize(s) + slug(s) + makeSlug(s);
}

function run() {
  const n = numbers.double(2);
  strings.capitalize(String(n));
  return title(`x ${numbers.half(n)}`);
}

run();
