export function helper(text) {
  return text.split(',');
}

export function parse(text) {
  return helper(text);
}
