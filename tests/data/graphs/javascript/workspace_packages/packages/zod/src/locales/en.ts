export function en(): string {
  return "en";
}
