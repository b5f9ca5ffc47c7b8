export function hidden(): number {
  return 1;
}
