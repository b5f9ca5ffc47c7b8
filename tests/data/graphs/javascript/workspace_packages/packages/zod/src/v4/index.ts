export function string(): string {
  return "";
}

export function number(): number {
  return 0;
}
