/** Class names from strings, numbers, objects (keys whose values are truthy) and nested arrays. */
export function classes(...args) {
  const out = [];
  for (const arg of args) {
    if (!arg) continue;
    if (typeof arg === 'string' || typeof arg === 'number') out.push(String(arg));
    else if (Array.isArray(arg)) {
      const inner = classes(...arg);
      if (inner) out.push(inner);
    } else if (typeof arg === 'object') {
      for (const key of Object.keys(arg)) if (arg[key]) out.push(key);
    }
  }
  return out.join(' ');
}

export default classes;
