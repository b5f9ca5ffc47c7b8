export function capitalize(s) {
  return s[0].toUpperCase() + trim(s).slice(1);
}

function trim(s) {
  return s.trim();
}

export default function slug(s) {
  return capitalize(s).replace(/ /g, '-');
}
