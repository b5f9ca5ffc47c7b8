export function helper(items: string[]): string {
  return items.join(';');
}

export function render(items: string[]): string {
  return helper(items);
}
