export const double = (n) => n * 2;
export function half(n) {
  return n / 2;
}
