// Account ids in arguments, checked as near-sdk's AccountId deserialisation checks them (NEAR's rules:
// 2 to 64 characters, lowercase letters, digits and the separators `-`, `_` inside parts joined by `.`).

export function isValidAccountId(id: string): bool {
  if (id.length < 2 || id.length > 64) return false;
  let lastSeparator = true; // the start counts as after a separator
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    const alnum = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    if (alnum) {
      lastSeparator = false;
    } else if (c == 45 || c == 95 || c == 46) {
      if (lastSeparator) return false;
      lastSeparator = true;
    } else {
      return false;
    }
  }
  return !lastSeparator;
}

export function checkAccountId(id: string, path: string): string {
  if (!isValidAccountId(id)) throw new Error("Invalid argument `" + path + "`: " + id + " is not a valid account id");
  return id;
}

/** A NEAR implicit account: 64 lowercase hex digits (the hex of an ed25519 public key). */
export function isImplicitAccount(id: string): bool {
  if (id.length != 64) return false;
  for (let i = 0; i < 64; i++) {
    const c = id.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}
