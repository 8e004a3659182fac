// nearcore's account id rules (near-account-id): 2 to 64 characters; parts separated by '.', each of
// lowercase letters and digits, with single '-' or '_' only between two of them.

const MIN_LEN = 2;
const MAX_LEN = 64;

function isAlphanumeric(c: i32): bool {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

function isSeparator(c: i32): bool {
  return c == 0x2d || c == 0x5f || c == 0x2e; // - _ .
}

export function isValidAccountId(id: string): bool {
  if (id.length < MIN_LEN || id.length > MAX_LEN) return false;
  // A separator must follow an alphanumeric, and the id must end with one.
  let lastWasSeparator = true;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (isAlphanumeric(c)) lastWasSeparator = false;
    else if (isSeparator(c)) {
      if (lastWasSeparator) return false;
      lastWasSeparator = true;
    } else return false;
  }
  return !lastWasSeparator;
}
